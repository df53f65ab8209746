import { Ajv } from 'ajv';
import * as formats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// Reads the app's own OpenAPI document and builds requests that pass its schemas, so the
// authorization matrix and the fuzzer cover every route, including routes added later.

export type Schema = Record<string, any>;

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  /** OpenAPI path, e.g. /api/users/{id} */
  path: string;
  params: Param[];
  body: Schema | undefined;
  /** not behind a panel session: `security: []`, or another scheme (a customer session: its own tests) */
  declaredPublic: boolean;
  /** error codes the document lists per status ("Conflict: USERNAME_TAKEN, INSUFFICIENT_CREDITS") */
  errors: Record<string, string[]>;
}

/** Is this error answer one the document lists for the operation? */
export function isDocumentedError(op: Operation, status: number, body: string): boolean {
  // A body-less answer (the edge hook's 401/403 for nginx) is documented by its status alone.
  if (body === '') return status in op.errors;
  let code: unknown;
  try {
    code = JSON.parse(body).code;
  } catch {
    return false;
  }
  return (op.errors[status] ?? []).includes(String(code));
}

/** Calls that need no session by design (`security: []`): sign-in and its later steps, short links. */
export function isPublic(op: Operation): boolean {
  return op.declaredPublic;
}

export function operations(app: FastifyInstance): Operation[] {
  const doc = app.swagger() as unknown as { paths: Record<string, Record<string, Schema>> };
  const ops: Operation[] = [];
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(byMethod)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = ((op.parameters ?? []) as Schema[]).map((p) => ({
        name: p.name as string,
        in: p.in as Param['in'],
        required: Boolean(p.required),
        schema: (p.schema ?? {}) as Schema,
      }));
      const content = op.requestBody?.content as Record<string, { schema?: Schema }> | undefined;
      const body = content ? (content['application/json'] ?? Object.values(content)[0])?.schema ?? {} : undefined;
      const errors = Object.fromEntries(
        Object.entries((op.responses ?? {}) as Record<string, { description?: string }>)
          .filter(([status]) => Number(status) >= 400)
          .map(([status, answer]) => [status, (answer.description ?? '').replace(/^[^:]*: /, '').split(', ')]),
      );
      ops.push({ method: method.toUpperCase(), path, params, body, declaredPublic: Array.isArray(op.security) && !op.security.some((req) => 'bearer' in req), errors });
    }
  }
  return ops;
}

/** Builds the URL of an operation: path params substituted (already-encoded text), query appended. */
export function urlOf(op: Operation, path: Record<string, string>, query: Record<string, string | string[]> = {}): string {
  const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => path[name] ?? '1');
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) qs.append(k, one);
  const s = qs.toString();
  return s ? `${url}?${s}` : url;
}

// ---- schema validation with the server's own rules (strict bodies, coerced params) ----

const addFormats = (formats as unknown as { default: (ajv: Ajv) => Ajv }).default;
const strictAjv = addFormats(new Ajv({ strict: false, allErrors: false, validateFormats: true }));
const coercingAjv = addFormats(new Ajv({ strict: false, allErrors: false, coerceTypes: 'array' }));
const compiled = new Map<string, (v: unknown) => boolean>();

export function validates(schema: Schema, value: unknown, coerce = false): boolean {
  const key = `${coerce}:${JSON.stringify(schema)}`;
  let fn = compiled.get(key);
  if (!fn) {
    try {
      const v = (coerce ? coercingAjv : strictAjv).compile(schema);
      fn = (x) => v(x) as boolean;
    } catch {
      fn = () => true; // a shape Ajv cannot compile: trust the sample
    }
    compiled.set(key, fn);
  }
  // coercion mutates its input: validate a copy
  return fn(coerce ? structuredClone(value) : value);
}

// ---- minimal valid values from a schema ----

/** A value for a named field the test wants to control (ids of the other subtree, known packages...). */
export type Hints = (name: string, schema: Schema) => unknown;

const STRING_CANDIDATES = ['probe', 'probe.example.com', '12345', 'probe@example.com', 'a', '+55 11 99999-0000', 'Pr0be-Value_9'];

function numberIn(schema: Schema, integer: boolean): number {
  let lo = typeof schema.minimum === 'number' ? schema.minimum : Number.NEGATIVE_INFINITY;
  let hi = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY;
  if (typeof schema.exclusiveMinimum === 'number') lo = Math.max(lo, schema.exclusiveMinimum + (integer ? 1 : 1e-6));
  if (typeof schema.exclusiveMaximum === 'number') hi = Math.min(hi, schema.exclusiveMaximum - (integer ? 1 : 1e-6));
  let n = Math.min(Math.max(1, lo), hi);
  if (integer) n = Math.ceil(n) > hi ? Math.floor(hi) : Math.ceil(n);
  if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0) n = Math.ceil(n / schema.multipleOf) * schema.multipleOf;
  return Number.isFinite(n) ? n : 1;
}

function stringFor(schema: Schema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 200;
  const formatted: Record<string, string> = {
    email: 'probe@example.com',
    'date-time': '2026-01-01T00:00:00Z',
    date: '2026-01-01',
    time: '12:00:00Z',
    uri: 'https://probe.example.com/',
    url: 'https://probe.example.com/',
    hostname: 'probe.example.com',
    uuid: '00000000-0000-4000-8000-000000000000',
    ipv4: '10.0.0.1',
  };
  const fitted = (s: string) => (s.length >= min ? s : s + 'x'.repeat(min - s.length)).slice(0, Math.max(min, max));
  const candidates = [formatted[schema.format] ?? '', ...STRING_CANDIDATES, '0'.repeat(Math.max(1, min)), ''].filter((s) => s !== '' || min === 0).map(fitted);
  if (schema.pattern) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(schema.pattern, 'u');
    } catch {
      re = undefined;
    }
    const ok = candidates.find((c) => !re || re.test(c));
    if (ok !== undefined) return ok;
  }
  return candidates.find((c) => validates(schema, c)) ?? candidates[0] ?? 'probe';
}

function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null') ?? t[0];
  if (t) return t;
  if (schema.properties || schema.required) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/**
 * A minimal value that passes `schema`: required properties, plus any property `hints` names.
 * Unknown shapes fall back to a plain string.
 */
export function sample(schema: Schema, name = '', hints: Hints = () => undefined, depth = 0): unknown {
  if (depth > 12) return null;
  const hinted = name ? hints(name, schema) : undefined;
  if (hinted !== undefined && validates(schema, hinted)) return hinted;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.find((v: unknown) => v !== null) ?? schema.enum[0];
  if (schema.default !== undefined && validates(schema, schema.default)) return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) {
      const options = (schema[key] as Schema[]).filter((s) => s.type !== 'null' && !(Array.isArray(s.enum) && s.enum.every((v: unknown) => v === null)));
      for (const option of options) {
        const v = sample(option, name, hints, depth + 1);
        if (validates(schema, v)) return v;
      }
      return options.length ? sample(options[0], name, hints, depth + 1) : null;
    }
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf as Schema[]) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
    }
    return sample(merged, name, hints, depth + 1);
  }
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [prop, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
        if (required.has(prop)) out[prop] = sample(sub, prop, hints, depth + 1);
        else {
          const h = hints(prop, sub);
          if (h !== undefined && validates(sub, h)) out[prop] = h;
        }
      }
      return out;
    }
    case 'array': {
      const count = Math.max(schema.minItems ?? 0, 0);
      const item = (schema.items ?? {}) as Schema;
      const items = Array.from({ length: count }, () => sample(item, name, hints, depth + 1));
      return schema.uniqueItems ? [...new Set(items.map((i) => JSON.stringify(i)))].map((s) => JSON.parse(s)) : items;
    }
    case 'integer':
      return numberIn(schema, true);
    case 'number':
      return numberIn(schema, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return stringFor(schema);
  }
}

/** Valid path/query values as text; `hints` may answer per parameter name. */
export function sampleParams(op: Operation, where: 'path' | 'query', hints: Hints, all = false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.params.filter((x) => x.in === where)) {
    const h = hints(p.name, p.schema);
    if (h !== undefined && validates(p.schema, String(h), true)) out[p.name] = String(h);
    else if (p.required || all) out[p.name] = String(sample(p.schema, p.name, hints));
  }
  return out;
}
