// `npm run bench -- --suite matrix`: every list combination of the OpenAPI document (list-matrix.ts:
// no filter, each filter, each pair x every offered sort x asc/desc x page 1 and a deep page) as
// three callers, the admin, the top-level master bench_master1 (the seed's biggest subtree) and a
// small reseller (the one of the admin's first 100 with the fewest lines, at least one), each sent
// --matrix-requests times (or for --matrix-seconds, whichever ends first) at --connections.
// Prints one line per combination, worst p99 first, then per route and caller how many are over
// 10/25/50/100 ms at p99 and how many answered other than 2xx (each distinct error once, with its
// body). --route PATH keeps one route, --limit N a sample of N combinations, --out FILE writes
// every result as JSON. A deep page is asked as the pager reaches it, with the previous page's
// meta.next as `after` (asked once, untimed); --matrix-by-number asks it by its number alone.
//
// With DATABASE_URL (the server's database), beside each p99 its floor: the statements the
// product's service sends for the same query (captured with captureQueries, nothing kept, so the
// capped counts are in), timed on the raw driver, one at a time, median of three runs.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import SqliteDatabase from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/connection.ts';
import { captureQueries } from '../db/plans.ts';
import type { Deps } from '../deps.ts';
import type { AuthUser } from '../domain/auth-user.ts';
import { OPENAPI_FILE } from '../http/openapi-file.ts';
import { authenticate } from '../modules/auth/service.ts';
import { type Combination, type ListRoute, type OpenApiDoc, LIST_SERVICES, combinations, filterValues, listRoutes, queryText, typedQuery } from './list-matrix.ts';

export interface MatrixOptions {
  base: string;
  databaseUrl?: string;
  admin: string;
  signIn: (username: string, password: string) => Promise<string>;
  password: string;
  requests: number;
  seconds: number;
  connections: number;
  route?: string;
  limit?: number;
  out?: string;
  floor: boolean;
  /** deep pages by number alone (OFFSET), not from the previous page's cursor */
  byNumber?: boolean;
}

type Role = 'admin' | 'master' | 'reseller';
interface Caller {
  as: Role;
  username: string;
  token: string;
  id: number;
  actor?: AuthUser;
}
interface Result {
  as: Role;
  path: string;
  query: string;
  filters: number;
  n: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  floor?: number;
}

export async function matrixSuite(o: MatrixOptions) {
  const get = async (token: string, url: string) => {
    const res = await fetch(`${o.base}${url}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    return { status: res.status, json: res.ok ? JSON.parse(text) : undefined, text };
  };
  const profile = async (token: string) => (await get(token, '/api/profile')).json as { id: number; username: string };

  // The callers: the admin, bench_master1, and a small reseller found through the API.
  const callers: Caller[] = [{ as: 'admin', username: 'admin', token: o.admin, id: (await profile(o.admin)).id }];
  const masterToken = await o.signIn('bench_master1', o.password);
  callers.push({ as: 'master', username: 'bench_master1', token: masterToken, id: (await profile(masterToken)).id });
  const listed = (await get(o.admin, '/api/resellers?per=100')).json as { data: { username: string; group_type: string; clients_count: number }[] };
  const small = listed.data.filter((r) => r.group_type === 'reseller' && r.clients_count > 0).sort((a, b) => a.clients_count - b.clients_count)[0];
  if (small) {
    const token = await o.signIn(small.username, o.password);
    callers.push({ as: 'reseller', username: small.username, token, id: (await profile(token)).id });
  } else {
    console.log('(no reseller with lines among the first 100: the reseller caller is left out)');
  }

  const doc = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as OpenApiDoc;
  const routes = listRoutes(doc).filter((r) => !o.route || r.path === o.route);
  if (routes.length === 0) throw new Error(`no list route ${o.route ?? ''} in ${OPENAPI_FILE}`);

  // Every (route, caller) the caller may call, with the values of its filters from its own first page.
  const now = Math.floor(Date.now() / 1000);
  let all: { route: ListRoute; caller: Caller; c: Combination }[] = [];
  for (const caller of callers) {
    const below = await get(caller.token, '/api/resellers?per=10');
    const other = (below.json?.data as { id: number }[] | undefined)?.find((r) => r.id !== caller.id);
    const lines = (await get(caller.token, '/api/users?per=100')).json.data;
    for (const route of routes) {
      const probe = await get(caller.token, `${route.path}?page=1&${route.perName}=100`);
      if (probe.status !== 200) {
        console.log(`skipped ${route.path} as ${caller.as}: ${probe.status} unfiltered`);
        continue;
      }
      const rows = probe.json.data.length > 0 ? probe.json.data : lines;
      const { values, missing } = filterValues(route, { rows, now, resellerId: other?.id ?? caller.id });
      if (missing.length > 0) console.log(`${route.path} as ${caller.as}: no value for ${missing.join(', ')} (nothing listed to take one from), left out`);
      for (const c of combinations(route, values)) all.push({ route, caller, c });
    }
  }
  const total = all.length;
  if (o.limit && o.limit < all.length) all = sample(all, o.limit);
  console.log(`\n${all.length} of ${total} combinations, ${o.requests} requests (at most ${o.seconds} s) each at ${o.connections} connections; load ${os.loadavg()[0].toFixed(1)}\n`);

  const floor = o.floor && o.databaseUrl ? await openFloor(o.databaseUrl, callers) : undefined;
  if (!floor) console.log('(no DATABASE_URL or --skip-floor: no floor column)\n');
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  /** A deep page with the previous page's meta.next as `after`, as the pager asks it. */
  const withCursor = async (c: Combination, token: string): Promise<Combination> => {
    const page = Number(c.query.page);
    if (!(page > 1)) return c;
    const prev = (await get(token, `${c.path}?${queryText({ ...c.query, page: String(page - 1) })}`)).json as { meta?: { next?: string } } | undefined;
    const next = prev?.meta?.next;
    return next ? { ...c, query: { ...c.query, after: next } } : c;
  };
  const seenErrors = new Set<string>();
  const results: Result[] = [];
  const started = Date.now();
  try {
    for (const [i, { route, caller, c: asked }] of all.entries()) {
      const c = o.byNumber ? asked : await withCursor(asked, caller.token);
      const url = `${o.base}${c.path}?${queryText(c.query)}`;
      const r = await measure(agent, url, caller.token, o.requests, o.seconds, o.connections);
      for (const e of r.errors) {
        const key = `${c.path} ${caller.as} ${e.status} ${e.body}`;
        if (seenErrors.has(key)) continue;
        seenErrors.add(key);
        console.log(`error: ${caller.as} GET ${c.path}?${queryText(c.query)}: ${e.status} ${e.body.slice(0, 500)}`);
      }
      const floorMs = floor ? await floor.time(route, caller, c) : undefined;
      results.push({ as: caller.as, path: c.path, query: queryText(c.query), filters: Object.keys(c.filters).length, n: r.latencies.length, ...stats(r.latencies), errors: r.errors.length, floor: floorMs });
      if ((i + 1) % 200 === 0) console.log(`  ${i + 1} / ${all.length} (${Math.round((Date.now() - started) / 1000)} s, load ${os.loadavg()[0].toFixed(1)})`);
    }
  } finally {
    agent.destroy();
    await floor?.close();
  }

  results.sort((a, b) => b.p99 - a.p99);
  console.log(`\np99 ms | p50 ms |${floor ? ' floor ms |' : ''} errors | as | request`);
  for (const r of results) console.log(`${fmt(r.p99)} | ${fmt(r.p50)} |${floor ? ` ${r.floor === undefined ? '-' : fmt(r.floor)} |` : ''} ${r.errors} | ${r.as} | ${r.path}?${r.query}`);
  console.log(`\n${summary(results)}`);
  console.log(`\n${results.length} combinations in ${Math.round((Date.now() - started) / 1000)} s, load ${os.loadavg()[0].toFixed(1)}`);
  if (o.out) {
    fs.writeFileSync(o.out, JSON.stringify({ base: o.base, requests: o.requests, connections: o.connections, callers: callers.map((c) => ({ as: c.as, username: c.username })), results }, null, 1));
    console.log(`wrote ${o.out}`);
  }
}

/** Per route and caller: combinations, how many are over 10/25/50/100 ms at p99, the worst, errors. */
export function summary(results: Result[]): string {
  const groups = new Map<string, Result[]>();
  for (const r of results) {
    const key = `${r.path} | ${r.as}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const rows = ['| route | as | combinations | p99 > 10 ms | > 25 ms | > 50 ms | > 100 ms | worst p99 ms | errors |', '|---|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const [key, rs] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const over = (ms: number) => rs.filter((r) => r.p99 > ms).length;
    const errors = rs.reduce((n, r) => n + r.errors, 0);
    rows.push(`| ${key} | ${rs.length} | ${over(10)} | ${over(25)} | ${over(50)} | ${over(100)} | ${fmt(Math.max(...rs.map((r) => r.p99)))} | ${errors} |`);
  }
  return rows.join('\n');
}

const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : String(Math.round(ms)));

function stats(latencies: number[]) {
  const s = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => (s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]);
  return { p50: at(0.5), p99: at(0.99), max: s.at(-1) ?? 0 };
}

/** A fixed sample of n (the same on every run), spread over the whole list. */
function sample<T>(items: T[], n: number): T[] {
  let seed = 1;
  const rnd = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

/** `requests` GETs of one URL, `connections` at a time, stopping early after `seconds`. */
async function measure(agent: http.Agent, url: string, token: string, requests: number, seconds: number, connections: number) {
  const latencies: number[] = [];
  const errors: { status: number; body: string }[] = [];
  const until = Date.now() + seconds * 1000;
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          latencies.push(performance.now() - t0);
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) errors.push({ status, body: Buffer.concat(chunks).toString() });
          resolve();
        });
      });
      req.on('error', (e) => {
        errors.push({ status: 0, body: String(e) });
        resolve();
      });
    });
  const worker = async () => {
    while (sent < requests && Date.now() < until) {
      sent++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { latencies, errors };
}

/**
 * The floor of a combination: the reading statements its service call sends (the session check
 * left out), timed on the raw driver one after another; the median of three runs after a warm-up.
 */
async function openFloor(url: string, callers: Caller[]) {
  const database = openDatabase(url);
  const deps: Deps = { config: loadConfig(), database };
  for (const c of callers) c.actor = await authenticate(deps, c.token);
  const reading = (q: CompiledQuery) => /^\s*(select|with)\b/i.test(q.sql);
  let run: (qs: CompiledQuery[]) => Promise<void>;
  let close: () => Promise<void>;
  if (url.startsWith('sqlite:')) {
    const raw = new SqliteDatabase(url.slice('sqlite:'.length), { readonly: true });
    const prepared = new Map<string, SqliteDatabase.Statement>();
    run = async (qs) => {
      for (const q of qs) {
        const stmt = prepared.get(q.sql) ?? raw.prepare(q.sql);
        prepared.set(q.sql, stmt);
        stmt.all(q.parameters as unknown[]);
      }
    };
    close = async () => {
      raw.close();
    };
  } else {
    pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    run = async (qs) => {
      for (const q of qs) await client.query(q.sql, q.parameters as unknown[]);
    };
    close = () => client.end();
  }
  return {
    async time(route: ListRoute, caller: Caller, c: Combination): Promise<number | undefined> {
      const service = LIST_SERVICES[route.path];
      if (!service || !caller.actor) return undefined;
      let queries: CompiledQuery[];
      try {
        queries = (await captureQueries(database, (db) => service.run({ ...deps, database: { ...database, db } }, caller.actor!, typedQuery(route, c.query)))).filter(reading);
      } catch {
        return undefined; // the request was refused (a 400 or 403): no statements of its own
      }
      await run(queries);
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        await run(queries);
        times.push(performance.now() - t0);
        if (times[0] > 1000) break;
      }
      return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
    },
    async close() {
      await close();
      await database.close();
    },
  };
}
