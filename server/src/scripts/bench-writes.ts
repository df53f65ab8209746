// `npm run bench -- --suite writes` (see bench.ts): credit spends through the API beside the raw
// driver running the same transaction. Run on a copy of the bench database: it adds rows.
import fs from 'node:fs';
import os from 'node:os';
import SqliteDatabase from 'better-sqlite3';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/connection.ts';
import { captureQueries } from '../db/plans.ts';
import type { Deps } from '../deps.ts';
import type { AuthUser } from '../domain/auth-user.ts';
import * as lines from '../modules/lines/service.ts';
import { changeCredits } from '../modules/resellers/credits.ts';

interface Options {
  base: string;
  databaseUrl: string;
  admin: string;
  spends: number;
  connections: number;
  api: <T = any>(method: string, path: string, body?: unknown) => Promise<T>;
}

const PASSWORD = 'Bench-writes-2026x';
const load = () => os.loadavg()[0].toFixed(1);

/** CPU seconds the server process (BENCH_PID) has used so far, or undefined. */
function serverCpu(): number | undefined {
  const pid = process.env.BENCH_PID;
  if (!pid) return undefined;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 10 ms
}
const stamp = Date.now().toString(36);

interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

export async function writesSuite(o: Options) {
  const database = openDatabase(o.databaseUrl);
  try {
    const deps: Deps = { config: loadConfig(), database };
    const spied = (db: Database['db']): Deps => ({ ...deps, database: { ...database, db } });
    const groups: Record<string, number> = {};
    for (const g of (await o.api<{ groups: { type: string; group_id: number }[] }>('GET', '/api/datacomplements')).groups) groups[g.type] ??= g.group_id;
    const packages = (await o.api<{ data: { id: number; is_trial: number; max_connections: number; official_credits: number }[] }>('GET', '/api/admin/packages?per=100')).data;
    const pkg = packages.find((p) => p.is_trial === 0 && p.max_connections < 2 && p.official_credits > 0);
    if (!pkg) throw new Error('no one-screen paid package to create lines with');
    const cost = pkg.official_credits;
    const newReseller = async (token: string, username: string, group: string, credits: number) => {
      const res = await call(o.base, token, 'POST', '/api/resellers', { username, password: PASSWORD, member_group_id: groups[group], credits });
      if (res.status !== 201) throw new Error(`create ${username}: ${res.status} ${JSON.stringify(res.body)}`);
      const id = (res.body as { id: number }).id;
      const signed = await call(o.base, null, 'POST', '/api/auth/sign-in', { username, password: PASSWORD });
      return { id, username, token: (signed.body as { token: string }).token };
    };
    const actorOf = (r: { id: number; username: string }, type: AuthUser['type']): AuthUser => ({ id: r.id, username: r.username, type, credits: 0, sessionId: 0, twoFactorEnabled: false });

    // A warm-up of as many spends of the same kind, not counted, before each measured run
    // (product and floor alike): a server answers its first thousands of requests while V8 still
    // compiles the code they run (creations ran at ~1,400/s over the first 2,000 and ~2,000/s
    // after), which a server that has been up for a while does not.
    const warm = o.spends;
    console.log(`\n${database.dialect}: ${o.spends} spends per run after ${warm} not counted, ${o.connections} concurrent; package ${pkg.id} costs ${cost} credit(s)\n`);
    console.log('| spend | product spends/s | p50 ms | p99 ms | errors | raw-driver floor spends/s | p50 ms | p99 ms | product/floor | CPU ms per spend: server / floor | exact (balance = initial - debits = ledger sum) | load 1 min |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');

    // Line creations by a fresh reseller.
    {
      const initial = (o.spends + warm) * cost;
      const r = await newReseller(o.admin, `bw_res_${stamp}`, 'reseller', initial);
      const creation = () => ({ method: 'POST' as const, path: '/api/users', body: { package_id: pkg.id } });
      await drive(o.base, r.token, warm, o.connections, creation, 'warm');
      const loadBefore = load();
      const product = await drive(o.base, r.token, o.spends, o.connections, creation);
      const loadAfter = load();
      const exact = await exactness(database, r.id, initial);
      const floorOwner = await newReseller(o.admin, `bw_resf_${stamp}`, 'reseller', (o.spends + warm + 1) * cost);
      let made: { username: string } | undefined;
      const key = `floor-${stamp}`;
      const sent = await captureQueries(database, async (db) => {
        made = await lines.create(spied(db), actorOf(floorOwner, 'reseller'), { package_id: pkg.id }, key);
      });
      const floor = await rawFloor(o.databaseUrl, bodyOf(sent), warm, o.spends, o.connections, (i) => ({ [made!.username]: `${made!.username}f${i}`, [key]: `${key}-${i}` }));
      row('line creation (reseller)', product, floor, exact, `${loadBefore} / ${loadAfter}`);
    }

    // Line creations spread over 16 fresh resellers (requests take turns): spends of one balance
    // queue for its row, spends of different resellers do not. No floor for this one.
    {
      const each = Math.ceil((o.spends + warm) / 16) * cost;
      const rs: { id: number; token: string }[] = [];
      for (let i = 0; i < 16; i++) rs.push(await newReseller(o.admin, `bw_res${i}_${stamp}`, 'reseller', each + cost));
      const creation = () => ({ method: 'POST' as const, path: '/api/users', body: { package_id: pkg.id } });
      const tokenOf = (n: number) => rs[n % rs.length].token;
      await drive(o.base, tokenOf, warm, o.connections, creation, 'warm16');
      const loadBefore = load();
      const product = await drive(o.base, tokenOf, o.spends, o.connections, creation, 'run16');
      const loadAfter = load();
      const checks = await Promise.all(rs.map((r) => exactness(database, r.id, each + cost)));
      const exact = checks.every((c) => c.text.startsWith('yes')) ? 'yes, each of 16' : checks.map((c) => c.text).join('; ');
      row('line creation (16 resellers)', product, undefined, exact, `${loadBefore} / ${loadAfter}`);
    }

    // Transfers by a fresh master to ten resellers of its own.
    {
      const initial = o.spends + warm;
      const m = await newReseller(o.admin, `bw_m_${stamp}`, 'master', initial);
      const targets: number[] = [];
      for (let i = 0; i < 10; i++) targets.push((await newReseller(m.token, `bw_t${i}_${stamp}`, 'reseller', 0)).id);
      const transfer = (n: number) => ({ method: 'POST' as const, path: `/api/resellers/${targets[n % targets.length]}/credits`, body: { value: 1 } });
      await drive(o.base, m.token, warm, o.connections, transfer, 'warm');
      const loadBefore = load();
      const product = await drive(o.base, m.token, o.spends, o.connections, transfer);
      const loadAfter = load();
      const exact = await exactness(database, m.id, initial);
      const received = await database.db.selectFrom('resellers').select((eb) => eb.fn.sum<number>('credits').as('s')).where('id', 'in', targets).executeTakeFirstOrThrow();
      const fm = await newReseller(o.admin, `bw_mf_${stamp}`, 'master', o.spends + warm + 1);
      const ft = await newReseller(fm.token, `bw_tf_${stamp}`, 'reseller', 0);
      const key = `floor-t-${stamp}`;
      const sent = await captureQueries(database, (db) => changeCredits(spied(db), actorOf(fm, 'master'), ft.id, 1, key));
      const floor = await rawFloor(o.databaseUrl, bodyOf(sent), warm, o.spends, o.connections, (i) => ({ [key]: `${key}-${i}` }));
      const targetsOk = Number(received.s) === initial - exact.balance;
      row('credit transfer (master)', product, floor, `${exact.text}; received ${received.s} ${targetsOk ? '' : '(MISMATCH)'}`, `${loadBefore} / ${loadAfter}`);
    }
  } finally {
    await database.close();
  }
}

function row(name: string, p: Driven, f: Driven | undefined, exact: string | { text: string }, loadText: string) {
  const e = typeof exact === 'string' ? exact : exact.text;
  const cpu = `${p.cpuMs === undefined ? '-' : p.cpuMs.toFixed(2)} / ${f?.cpuMs === undefined ? '-' : f.cpuMs.toFixed(2)}`;
  const floor = f ? `${Math.round(f.rate)} | ${f.p50} | ${f.p99} | ${(p.rate / f.rate).toFixed(2)}` : '- | - | - | -';
  console.log(`| ${name} | ${Math.round(p.rate)} | ${p.p50} | ${p.p99} | ${p.errors} | ${floor} | ${cpu} | ${e} | ${loadText} |`);
}

async function call(base: string, token: string | null, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as unknown };
}

interface Driven {
  rate: number;
  p50: number | string;
  p99: number | string;
  errors: number;
  ok: number;
  /** CPU milliseconds per spend: the server's (BENCH_PID), or the floor loop's own process */
  cpuMs?: number;
}

/** `amount` requests at `connections`, each with its own Idempotency-Key (`run` keeps a warm-up's keys apart). */
async function drive(base: string, token: string | ((n: number) => string), amount: number, connections: number, next: (n: number) => { method: 'POST'; path: string; body: unknown }, run = 'run'): Promise<Driven> {
  let n = 0;
  const cpuBefore = serverCpu();
  const started = performance.now();
  let lastAnswer = started;
  const r = await autocannon({
    url: base,
    connections,
    amount,
    timeout: 30,
    requests: [
      {
        setupRequest: (req) => {
          const q = next(n);
          const bearer = typeof token === 'string' ? token : token(n);
          return { ...req, method: q.method, path: q.path, body: JSON.stringify(q.body), headers: { ...req.headers, authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': `bw-${stamp}-${run}-${n++}` } };
        },
        onResponse: () => {
          lastAnswer = performance.now();
        },
      },
    ],
  });
  // Up to the last answer: autocannon reports whole seconds and ends an `amount` run on its
  // one-second tick (8,000 spends answered in 5.2 s read as 1,333/s).
  const seconds = (lastAnswer - started) / 1000;
  const ok = r['2xx'];
  const cpuAfter = serverCpu();
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1000) / r.requests.total;
  return { rate: r.requests.total / seconds, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors + r.timeouts, ok, cpuMs };
}

async function exactness(database: Database, id: number, initial: number) {
  const db = database.db;
  const balance = (await db.selectFrom('resellers').select('credits').where('id', '=', id).executeTakeFirstOrThrow()).credits;
  const ledger = await db
    .selectFrom('credit_ledger')
    .select((eb) => [eb.fn.sum<number>('delta').as('sum'), eb.fn.sum<number>(eb.case().when('delta', '<', 0).then(eb.neg(eb.ref('delta'))).else(0).end()).as('debits')])
    .where('reseller_id', '=', id)
    .executeTakeFirstOrThrow();
  const debits = Number(ledger.debits);
  // the first ledger row is the admin's mint of `initial`
  const exact = balance === initial - debits && balance === Number(ledger.sum);
  return { balance, text: `${exact ? 'yes' : 'NO'}: ${initial} - ${debits} = ${balance}, ledger sum ${ledger.sum}` };
}

/** The transaction's statements without the transaction control the product wraps them in. */
function bodyOf(sent: { sql: string; parameters: readonly unknown[] }[]): Statement[] {
  return sent.filter((q) => !/^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(q.sql)).map((q) => ({ sql: q.sql, parameters: q.parameters }));
}

/** The raw floor after `warm` spends not counted (see rawRun). */
async function rawFloor(url: string, statements: Statement[], warm: number, n: number, connections: number, fresh: (i: number) => Record<string, string>): Promise<Driven> {
  await rawRun(url, statements, 0, warm, connections, fresh);
  return rawRun(url, statements, warm, n, connections, fresh);
}

/**
 * The same statements, one transaction per spend, on the raw driver: better-sqlite3 (WAL,
 * synchronous=FULL) in a loop, or pg with `connections` clients. `fresh(i)` maps parameter values
 * that must be unique per spend (username, idempotency key) to new ones; spends `from`..`from + n`.
 */
async function rawRun(url: string, statements: Statement[], from: number, n: number, connections: number, fresh: (i: number) => Record<string, string>): Promise<Driven> {
  const params = (i: number) => {
    const map = fresh(from + i);
    return statements.map((s) => s.parameters.map((p) => (typeof p === 'string' && p in map ? map[p] : p)));
  };
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  if (url.startsWith('sqlite:')) {
    const sqlite = new SqliteDatabase(url.slice('sqlite:'.length));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const prepared = statements.map((s) => sqlite.prepare(s.sql));
    const begin = sqlite.prepare('BEGIN IMMEDIATE');
    const commit = sqlite.prepare('COMMIT');
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const values = params(i);
      begin.run();
      for (const [k, stmt] of prepared.entries()) {
        if (stmt.reader) stmt.all(values[k]);
        else stmt.run(values[k]);
      }
      commit.run();
      latencies.push(performance.now() - t);
    }
    sqlite.close();
  } else {
    const pool = new pg.Pool({ connectionString: url, max: connections });
    let next = 0;
    const worker = async () => {
      const client = await pool.connect();
      try {
        for (let i = next++; i < n; i = next++) {
          const t = performance.now();
          const values = params(i);
          await client.query('BEGIN');
          for (const [k, s] of statements.entries()) await client.query(s.sql, values[k] as unknown[]);
          await client.query('COMMIT');
          latencies.push(performance.now() - t);
        }
      } finally {
        client.release();
      }
    };
    await Promise.all(Array.from({ length: connections }, worker));
    await pool.end();
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  const used = process.cpuUsage(cpu);
  return { rate: n / seconds, p50: at(0.5), p99: at(0.99), errors: 0, ok: n, cpuMs: (used.user + used.system) / 1000 / n };
}
