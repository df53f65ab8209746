import type { Operation, Schema } from './openapi.ts';
import { sample, urlOf } from './openapi.ts';

// Malformed requests built from an operation's schemas, drawn from a seeded generator so a
// failing run can be replayed with FUZZ_SEED.

export type Rng = () => number;

/** mulberry32: small, fast, good enough to pick test cases reproducibly. */
export function prng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** what was malformed, for the report */
  what: string;
  /** a path id that is not a plain positive decimal: must never be answered with a 2xx */
  oddPath: boolean;
}

const deep = (open: string, close: string, n: number) => open.repeat(n) + close.repeat(n);
/** Placeholder a raw JSON text replaces after serialisation. */
const RAW = 'RAW-JSON-7f3a9c';

/** Raw JSON texts that a value can be replaced with (not expressible through JSON.stringify). */
const RAW_VALUES = [
  deep('[', ']', 5000),
  `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
  deep('[', ']', 100_000).slice(0, 200_000),
  '1e999',
  '-1e999',
  '123456789012345678901234567890',
  '0.1e-400',
  '-0',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"a\\u0000b"',
  '"\\u0000"',
];

export const ODD_IDS = [
  '%204', '0x1', '-1', '1e3', '99999999999', '01', 'abc', '0', '1.5', '%00', '1%20', '%2B1', '+1', '%201', '1e-3', '2147483648',
  '-0', 'Infinity', 'NaN', 'null', 'true', '%5B%5D', '%7B%7D', '1%3BDROP', '%E2%80%8B1', '%D9%A1', '%EF%BC%91', '%ED%A0%80', '%FF', '1'.repeat(400),
  '0b1', '0o7', '1_000', '%09', '1%0A', '..%2F..%2Fetc', '1,2', '1%2C2', '%25',
];

function oddValue(rng: Rng, schema: Schema): { value: unknown; what: string } {
  const options: [string, () => unknown][] = [
    ['a string', () => pick(rng, ['', ' ', 'abc', '1', 'null', 'true', '0x10', '1e3', '١٢٣', '<script>alert(1)</script>', "' OR 1=1 --", '%s%n', '../../etc/passwd'])],
    ['a number', () => pick(rng, [0, 1, -1, 1.5, -0.0001, 1e-9, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 1e308, -1e308])],
    ['a boolean', () => rng() < 0.5],
    ['null', () => null],
    ['an object', () => pick(rng, [{}, { a: 1 }, JSON.parse('{"__proto__":{"admin":true}}'), { constructor: { prototype: { admin: true } } }])],
    ['an array', () => pick(rng, [[], [1, 2], ['a'], [null], [[[]]], Array.from({ length: 5000 }, (_, i) => String(i))])],
    ['a long string', () => pick(rng, ['x', 'é', '😀', 'a\u0000'])!.repeat(pick(rng, [10_001, 50_000]))],
    ['NUL', () => pick(rng, ['\u0000', 'a\u0000b', '\u0000'.repeat(100)])],
    ['a lone surrogate', () => pick(rng, ['\ud800', 'a\udfffb', '\udbff', '\ud800\ud800'])],
    ['odd unicode', () => pick(rng, ['\u202eabc', '\ufeff1', 'Ａｄｍｉｎ', 'A\u0301', '\u200b'])],
    ['raw JSON', () => RAW],
  ];
  // bias towards the field's own type being broken
  const t = schema.type;
  if ((t === 'integer' || t === 'number') && rng() < 0.3) return { value: pick(rng, [1.5, -1, 0, 1e308, 2 ** 53 + 2, -(2 ** 31) - 1, '1', [1]]), what: 'an odd number' };
  if (t === 'array' && rng() < 0.3) return { value: pick(rng, [{ 0: '1' }, '1', 1, [[1]], [{}]]), what: 'an object for an array' };
  if (t === 'string' && rng() < 0.3) return { value: [sample(schema)], what: 'an array for a scalar' };
  const [what, make] = pick(rng, options);
  return { value: make(), what };
}

function serialise(value: unknown, raw: string): string {
  return JSON.stringify(value).replace(`"${RAW}"`, raw);
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/jsonx',
  'application/vnd.api+json',
  '*/*',
  '',
];

const MALFORMED_JSON = ['{', '{"a":', '{"a":1,}', "{'a':1}", 'nul', '', ' ', '[', '{"a":1}{"b":2}', '\u0000', '{"a":"\\x00"}', '{"a":"\\u12"}', '\ufeff{}', '{"__proto__":{"x":1}}', '{"a":NaN}'];

/** One malformed request for `op`; `pathIds` gives valid ids for its `{id}` (used half the time). */
export function malformed(rng: Rng, op: Operation, validBody: unknown, pathIds: number[]): FuzzRequest {
  const notes: string[] = [];
  let oddPath = false;
  // ---- path ----
  const path: Record<string, string> = {};
  for (const p of op.params.filter((x) => x.in === 'path')) {
    if (rng() < 0.5 && pathIds.length) path[p.name] = String(pick(rng, pathIds));
    else {
      path[p.name] = pick(rng, ODD_IDS);
      oddPath = true;
      notes.push(`path ${p.name}=${path[p.name].slice(0, 20)}`);
    }
  }
  // ---- query ----
  const query: Record<string, string | string[]> = {};
  for (const q of op.params.filter((x) => x.in === 'query')) {
    if (rng() < 0.4) continue;
    const v = pick(rng, ['', '-1', '0', '1.5', '1e309', '99999999999999999999', 'abc', '\u0000', 'x'.repeat(10_001), '\ud800', 'asc', 'id,desc', 'id,sideways', 'a,b,c', '__proto__', String(sample(q.schema))]);
    query[q.name] = rng() < 0.15 ? [v, v] : v;
    notes.push(`query ${q.name}`);
  }
  if (rng() < 0.1) query[pick(rng, ['__proto__', 'constructor', 'x', 'page[]', 'per'])] = pick(rng, ['1', '{}', '']);
  let url = urlOf(op, path, query);
  if (rng() < 0.05) {
    url += `${url.includes('?') ? '&' : '?'}${pick(rng, ['%zz=1', 'a=%E0%A4%A', 'page=%', 'per=%FF', '&&&', 'a[b][c]=1'])}`;
    notes.push('bad query encoding');
  }

  // ---- body ----
  const headers: Record<string, string> = {};
  if (rng() < 0.15) {
    headers['idempotency-key'] = pick(rng, ['', ' ', 'k'.repeat(201), 'k'.repeat(5000), 'same-key', `k${Math.floor(rng() * 50)}`]);
    notes.push('idempotency-key');
  }
  let payload: string | Buffer | undefined;
  const hasBody = op.body !== undefined;
  const roll = rng();
  if (!hasBody && roll < 0.7) {
    // no body expected: mostly none, sometimes junk
  } else if (roll < 0.5 && validBody && typeof validBody === 'object' && !Array.isArray(validBody)) {
    const body = { ...(validBody as Record<string, unknown>) };
    const props = Object.keys((op.body?.properties ?? {}) as object);
    const field = props.length && rng() < 0.85 ? pick(rng, props) : pick(rng, ['extra', '__proto__', 'constructor', 'id', 'member_id', 'credits']);
    const schema = ((op.body?.properties ?? {}) as Record<string, Schema>)[field] ?? {};
    const odd = oddValue(rng, schema);
    const raw = odd.value === RAW ? pick(rng, RAW_VALUES) : '';
    Object.defineProperty(body, field, { value: odd.value, enumerable: true, writable: true, configurable: true });
    if (rng() < 0.1) delete body[pick(rng, Object.keys(body))];
    payload = serialise(body, raw);
    notes.push(`body.${field}=${odd.what}${raw ? ` ${raw.slice(0, 12)}...` : ''}`);
    headers['content-type'] = 'application/json';
  } else if (roll < 0.65) {
    payload = pick(rng, [...MALFORMED_JSON, ...RAW_VALUES.slice(0, 3), '[]', '"str"', '123', 'null', 'true']);
    notes.push(`body ${JSON.stringify(payload.slice(0, 16))}`);
    headers['content-type'] = 'application/json';
  } else if (roll < 0.8) {
    headers['content-type'] = pick(rng, CONTENT_TYPES);
    payload = rng() < 0.5 ? JSON.stringify(validBody ?? {}) : 'a=1&b=2';
    notes.push(`content-type ${headers['content-type'] || '(empty)'}`);
  } else if (roll < 0.9) {
    // invalid UTF-8 inside a JSON string (a raw lone surrogate, an overlong form, a stray byte)
    const text = JSON.stringify(validBody ?? { a: 'x' });
    const at = Math.max(1, text.indexOf('"', 1) + 1);
    payload = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(pick(rng, [[0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xff], [0xfe, 0xff]])), Buffer.from(text.slice(at))]);
    headers['content-type'] = 'application/json';
    notes.push('invalid UTF-8');
  } else {
    payload = 'x'.repeat(pick(rng, [300_000, 256 * 1024 + 1]));
    headers['content-type'] = 'application/json';
    notes.push('oversized body');
  }
  if (!headers['content-type']) delete headers['content-type'];
  return { method: op.method, url, headers, payload, what: notes.join('; ') || 'valid-looking', oddPath };
}
