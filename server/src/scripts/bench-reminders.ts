// `npm run bench -- --suite reminders` (see bench.ts): one reminder tick with a backlog of
// --accounts x --per-account (default 500 x 20 = 10,000) WhatsApp messages due today, at the scale
// of `npm run seed:bench` (1,000,000 lines over 10,000 resellers), against the running server,
// through an Evolution API stand-in this suite starts on 127.0.0.1 (it answers at once, so the time
// to drain the backlog is the panel's own work). Meanwhile the admin and bench_master1 ask
// GET /api/users?per=10 and GET /api/dashboard on a fixed schedule (--probe-rate requests a second
// in all, open loop), first for --baseline-seconds with nothing to send, then while the backlog
// drains, then for --after-seconds with the accounts still on and nothing left to send.
// --gateway-delay-ms N makes the stand-in answer each message after N ms, like a real gateway (the
// drain then shows how many sends the scheduler keeps in flight).
//
// The server must be started with (besides its DATABASE_URL and ADMIN_PASSWORD):
//   OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32  the stand-in is on loopback, which outbound calls refuse otherwise
//   REMINDERS_TICK_SECONDS=2             a tick soon after the accounts are switched on
//   the same REMINDERS_TIME_ZONE and TWO_FACTOR_KEY as this suite's environment (both may be unset:
//   the gateway keys are sealed here with the key the server keeps in `server_keys`)
// and DATABASE_URL here must name the server's database (the suite prepares lines and settings
// with SQL). BENCH_PID (the server process, `ss -ltnp | grep :PORT`) adds its CPU time.
//
// What it changes in the database (run it on the bench database, not a live one):
// - when fewer than --week-share (default 0.10) of the lines expire within the coming 7 days, it
//   moves far-future expiries of every 7th line into that week (seed:bench spreads expiries over
//   150 days, ~4.7 % a week) so the scan has realistic neighbours; once;
// - picks --accounts resellers owning at least 2 x --per-account enabled lines, and makes
//   --per-account of each one's lines due their `day` reminder (expiry later today in the
//   reminders' time zone, a unique WhatsApp number, enabled, not deleted, not opted out), counting
//   in any of its lines already due today so each account has exactly --per-account due;
// - deletes those accounts' earlier reminder_messages (a rerun starts clean), writes their
//   reminder_settings (stage `day`, sending hours 00:00-00:00 = always, the stand-in as gateway,
//   its key sealed like the server does), switches them on together, and off again at the end.
// Every other reminder_settings row is switched off first, so only this backlog is sent.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { type RawBuilder, sql } from 'kysely';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/connection.ts';
import { captureQueries, explain } from '../db/plans.ts';
import type { Deps } from '../deps.ts';
import { dayStart } from '../lib/calendar.ts';
import * as repo from '../modules/reminders/repo.ts';
import { KEY_PURPOSE } from '../modules/reminders/send.ts';
import { sealSecret } from '../modules/twofactor/secrets.ts';
import { cpuSeconds, machineBusySeconds, percentile, postgresCpuSeconds } from './bench-cpu.ts';

export interface RemindersOptions {
  base: string;
  admin: string;
  signIn: (username: string, password: string) => Promise<string>;
  accounts: number;
  perAccount: number;
  probeRate: number;
  baselineSeconds: number;
  afterSeconds: number;
  weekShare: number;
  /** give up waiting for the backlog after this long */
  timeoutSeconds: number;
  /** the stand-in answers each message after this long (0: at once, the panel's own pace) */
  gatewayDelayMs: number;
}

const USAGE =
  '--suite reminders needs DATABASE_URL (the server database) and a server started with OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32 and REMINDERS_TICK_SECONDS=2 ' +
  '(and the same REMINDERS_TIME_ZONE / TWO_FACTOR_KEY as here, if set), seeded with npm run seed:bench; e.g.\n' +
  '  DATABASE_URL=sqlite:///tmp/b1m.db PORT=3377 ADMIN_PASSWORD=... OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32 REMINDERS_TICK_SECONDS=2 node scripts/start.mjs\n' +
  '  DATABASE_URL=sqlite:///tmp/b1m.db BENCH_URL=http://127.0.0.1:3377 ADMIN_PASSWORD=... npm run bench -- --suite reminders';

const BENCH_PASSWORD = 'bench-pass-2026';
const GATEWAY_KEY = 'bench-evolution-key';
const WEEK = 7 * 86_400;

export async function remindersSuite(o: RemindersOptions) {
  if (!process.env.DATABASE_URL) throw new Error(USAGE);
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl, { sqliteReaders: 0 });
  const deps: Deps = { config, database };
  const db = database.db;
  const tz = config.timeZone;
  const gateway = await startGateway(o.gatewayDelayMs);
  const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
  const chosen: number[] = [];
  try {
    // 0. Only this run's accounts send.
    await db.updateTable('reminder_settings').set({ enabled: 0 }).where('enabled', '=', 1).execute();

    // 1. A realistic week ahead.
    const now0 = Math.floor(Date.now() / 1000);
    const total = await count(sql`select count(*) as n from lines where deleted_at is null`);
    const weekCount = () => count(sql`select count(*) as n from lines where deleted_at is null and exp_date >= ${now0} and exp_date < ${now0 + WEEK}`);
    let week = await weekCount();
    const weekBefore = week;
    const target = Math.round(total * o.weekShare);
    if (week < target) {
      // far-future expiries (beyond 30 days) of every 7th line move into the coming week, in batches
      const batch = 5_000;
      for (let left = target - week; left > 0; left -= batch) {
        const ids = (
          await sql<{ id: number }>`select id from lines where deleted_at is null and exp_date >= ${now0 + 30 * 86_400} and id % 7 = 3 order by id limit ${Math.min(batch, left)}`.execute(db)
        ).rows.map((r) => r.id);
        if (ids.length === 0) break;
        await sql`update lines set exp_date = ${now0 + 3_600} + (cast(id as bigint) * 7919) % ${WEEK - 7_200} where id in (${sql.join(ids)})`.execute(db);
      }
      if (database.dialect === 'postgres') await sql`analyze lines`.execute(db);
      week = await weekCount();
    }
    log(`${total} lines; expiring within 7 days: ${weekBefore} (${pct(weekBefore, total)})${week !== weekBefore ? ` -> moved to ${week} (${pct(week, total)})` : ''}`);

    // 2. The accounts and their due lines.
    const today = dayStart(now0, tz);
    const tomorrow = dayStart(now0, tz, 1);
    const earliest = now0 + 300;
    if (tomorrow - earliest < 3_600) throw new Error(`less than an hour of today is left in ${tz}: run it after midnight there`);
    const candidates = (
      await sql<{ member_id: number; n: number }>`
        select l.member_id, count(*) as n from lines l join resellers r on r.id = l.member_id
        where l.enabled = 1 and l.deleted_at is null and r.deleted_at is null and r.username like 'bench_%'
        group by l.member_id having count(*) >= ${o.perAccount * 2} order by l.member_id`.execute(db)
    ).rows.map((r) => Number(r.member_id));
    if (candidates.length < o.accounts) throw new Error(`only ${candidates.length} bench resellers own ${o.perAccount * 2}+ enabled lines (seed with npm run seed:bench)`);
    type L = { id: number; member_id: number; exp_date: number; whatsapp: string | null; enabled: number; deleted_at: number | null; opt_out_reminders: number };
    const updates: { id: number; exp: number; whatsapp: string }[] = [];
    let alreadyDue = 0;
    let phone = 0;
    for (let i = 0; i < candidates.length && chosen.length < o.accounts; i += 100) {
      const ids = candidates.slice(i, i + 100);
      const rows = (await db.selectFrom('lines').select(['id', 'member_id', 'exp_date', 'whatsapp', 'enabled', 'deleted_at', 'opt_out_reminders']).where('member_id', 'in', ids).orderBy('id').execute()) as L[];
      for (const id of ids) {
        if (chosen.length >= o.accounts) break;
        const own = rows.filter((r) => r.member_id === id);
        const eligible = (r: L) => r.enabled === 1 && r.deleted_at === null && r.opt_out_reminders === 0;
        const due = own.filter((r) => eligible(r) && r.whatsapp !== null && Number(r.exp_date) >= today && Number(r.exp_date) < tomorrow);
        if (due.length > o.perAccount) continue;
        const rest = own.filter((r) => eligible(r) && !due.includes(r));
        const picked = [...due, ...rest.slice(0, o.perAccount - due.length)];
        alreadyDue += due.length;
        for (const r of picked) {
          const keep = due.includes(r) && Number(r.exp_date) >= earliest;
          updates.push({ id: r.id, exp: keep ? Number(r.exp_date) : earliest + ((r.id * 7919) % (tomorrow - earliest - 60)), whatsapp: `5511${String(900_000_000 + phone++)}` });
        }
        chosen.push(id);
      }
    }
    const expected = updates.length;
    await db.deleteFrom('reminder_messages').where('reseller_id', 'in', chosen).execute();
    for (let i = 0; i < updates.length; i += 100) {
      await db.transaction().execute(async (trx) => {
        for (const u of updates.slice(i, i + 100))
          await trx.updateTable('lines').set({ exp_date: u.exp, whatsapp: u.whatsapp, enabled: 1, deleted_at: null, opt_out_reminders: 0 }).where('id', '=', u.id).execute();
      });
    }
    const numbers = new Set(updates.map((u) => u.whatsapp));
    // What the scheduler will find: every due line of these accounts for `day` (its own definition).
    let findable = 0;
    for (const id of chosen) findable += (await repo.dueLines(db, id, today, tomorrow, 'day', 'whatsapp', 1000)).length;
    log(`${chosen.length} accounts x ${o.perAccount} lines due today (${alreadyDue} of them were due already): ${expected} messages expected, ${findable} found by repo.dueLines`);
    if (findable !== expected) throw new Error(`repo.dueLines finds ${findable} due lines, expected ${expected}`);

    // 3. Their settings, off for now: the stand-in as gateway, the key sealed as the server does it.
    const stamp = Math.floor(Date.now() / 1000);
    for (let i = 0; i < chosen.length; i += 100) {
      const rows = await Promise.all(
        chosen.slice(i, i + 100).map(async (id) => ({
          reseller_id: id,
          enabled: 0,
          stages: JSON.stringify(['day']),
          quiet_from: '00:00',
          quiet_to: '00:00',
          language: 'pt',
          templates: null,
          email_enabled: 0,
          whatsapp_base_url: gateway.url,
          whatsapp_instance: `bench${id}`,
          whatsapp_key_sealed: await sealSecret(deps, id, GATEWAY_KEY, KEY_PURPOSE),
          updated_at: stamp,
        })),
      );
      await db
        .insertInto('reminder_settings')
        .values(rows)
        .onConflict((oc) =>
          oc.column('reseller_id').doUpdateSet((eb) => ({
            enabled: eb.ref('excluded.enabled'),
            stages: eb.ref('excluded.stages'),
            quiet_from: eb.ref('excluded.quiet_from'),
            quiet_to: eb.ref('excluded.quiet_to'),
            language: eb.ref('excluded.language'),
            templates: eb.ref('excluded.templates'),
            email_enabled: eb.ref('excluded.email_enabled'),
            whatsapp_base_url: eb.ref('excluded.whatsapp_base_url'),
            whatsapp_instance: eb.ref('excluded.whatsapp_instance'),
            whatsapp_key_sealed: eb.ref('excluded.whatsapp_key_sealed'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }

    // 4. Preflight: a test message through the server as the first account (the key opens, the
    // stand-in is reachable: OUTBOUND_ALLOW_NETWORKS).
    const firstName = (await db.selectFrom('resellers').select('username').where('id', '=', chosen[0]!).executeTakeFirstOrThrow()).username;
    const firstToken = await o.signIn(firstName, BENCH_PASSWORD);
    const test = await fetch(`${o.base}/api/reminders/test`, { method: 'POST', headers: { authorization: `Bearer ${firstToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ channel: 'whatsapp', to: '5511999999999' }) });
    if (!test.ok) throw new Error(`the server cannot send through the stand-in (${test.status} ${await test.text()}).\n${USAGE}`);
    gateway.reset();

    // 5. Probes, baseline / draining / after.
    const master = await o.signIn('bench_master1', BENCH_PASSWORD);
    const probes = startProbes(o.base, o.probeRate, [
      ['admin users?per=10', o.admin, '/api/users?per=10'],
      ['admin dashboard', o.admin, '/api/dashboard'],
      ['master users?per=10', master, '/api/users?per=10'],
      ['master dashboard', master, '/api/dashboard'],
    ]);
    const cpu = sampler();
    await sleep(2_000); // warm the connections: not counted
    const tBase = performance.now();
    const cpuBase = cpu();
    await sleep(o.baselineSeconds * 1000);

    const tEnable = performance.now();
    const cpuEnable = cpu();
    await db.updateTable('reminder_settings').set({ enabled: 1 }).where('reseller_id', 'in', chosen).execute();
    log(`switched on ${chosen.length} accounts; waiting for ${expected} messages`);
    let statuses: Record<string, number> = {};
    let lastProgress = performance.now();
    let lastSent = -1;
    for (;;) {
      await sleep(250);
      statuses = await statusCounts(chosen);
      const sent = statuses.sent ?? 0;
      if (sent !== lastSent) {
        lastSent = sent;
        lastProgress = performance.now();
      }
      const done = Object.values(statuses).reduce((a, b) => a + b, 0) - (statuses.sending ?? 0) - (statuses.retry ?? 0);
      if (done >= expected) break;
      if (performance.now() - tEnable > o.timeoutSeconds * 1000 || performance.now() - lastProgress > 120_000) {
        log(`gave up waiting: ${JSON.stringify(statuses)}`);
        break;
      }
    }
    const tDone = performance.now();
    const cpuDone = cpu();
    await sleep(o.afterSeconds * 1000);
    const tAfter = performance.now();
    const cpuAfter = cpu();
    const samples = await probes.stop();

    // Exactness.
    const g = gateway.stats();
    const wrongNumbers = [...g.perNumber.keys()].filter((n) => !numbers.has(n)).length;
    const duplicates = [...g.perNumber.values()].filter((n) => n > 1).length;
    const rows = await db.selectFrom('reminder_messages').select(sql<number>`count(distinct line_id)`.as('lines')).where('reseller_id', 'in', chosen).executeTakeFirstOrThrow();
    const drainS = (tDone - tEnable) / 1000;
    const firstToLastS = g.first && g.last ? (g.last - g.first) / 1000 : 0;
    const toFirstS = g.first ? (g.first - tEnable) / 1000 : NaN;
    const sent = statuses.sent ?? 0;

    console.log(`\n${database.dialect}: ${expected} WhatsApp messages due (${chosen.length} accounts x ${o.perAccount}), gateway stand-in answering ${o.gatewayDelayMs ? `after ${o.gatewayDelayMs} ms` : 'at once'}\n`);
    console.log('| messages sent | switch-on -> all recorded sent | switch-on -> first request | first -> last gateway request | msgs/s (first -> last) | gateway requests | distinct numbers | numbers asked more than once | not ours | rows (distinct lines) | statuses |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    console.log(
      `| ${sent} | ${drainS.toFixed(1)} s | ${toFirstS.toFixed(1)} s | ${firstToLastS.toFixed(1)} s | ${firstToLastS > 0 ? Math.round(g.requests / firstToLastS) : '-'} | ${g.requests} | ${g.perNumber.size} | ${duplicates} | ${wrongNumbers} | ${rows.lines} | ${JSON.stringify(statuses)} |`,
    );
    const ok = sent === expected && g.requests === expected && duplicates === 0 && wrongNumbers === 0;
    console.log(`\nexactly once: ${ok ? 'yes' : 'NO'} (${expected} expected)`);

    console.log(`\nother requests at ${o.probeRate}/s in all (open loop), by phase\n`);
    console.log('| phase | seconds | request | n | p50 ms | p99 ms | max ms | non-2xx+errors | CPU %: machine (of 200) = server + postgres + this bench + the rest |');
    console.log('|---|---:|---|---:|---:|---:|---:|---:|---|');
    const phases: [string, number, number, Cpu, Cpu][] = [
      ['baseline (nothing to send)', tBase, tEnable, cpuBase, cpuEnable],
      ['draining the backlog', tEnable, tDone, cpuEnable, cpuDone],
      ['after (accounts on, nothing due)', tDone, tAfter, cpuDone, cpuAfter],
    ];
    for (const [name, from, to, c0, c1] of phases) {
      const inPhase = samples.filter((s) => s.sentAt >= from && s.sentAt < to);
      const secs = (to - from) / 1000;
      const share = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : (100 * (b - a)) / secs);
      const machine = share(c0.busy, c1.busy)!;
      const parts = [share(c0.server, c1.server), share(c0.postgres, c1.postgres)!, share(c0.bench, c1.bench)!];
      const other = machine - parts.reduce<number>((a, b) => a + (b ?? 0), 0);
      const cpuText = `${machine.toFixed(0)} = ${parts.map((p) => (p === undefined ? '?' : p.toFixed(0))).join(' + ')} + ${other.toFixed(0)}`;
      for (const label of ['all', ...new Set(samples.map((s) => s.label))]) {
        const ms = inPhase.filter((s) => label === 'all' || s.label === label);
        const bad = ms.filter((s) => !s.ok).length;
        const q = quantiles(ms.map((s) => s.ms));
        console.log(`| ${label === 'all' ? name : ''} | ${label === 'all' ? secs.toFixed(1) : ''} | ${label} | ${ms.length} | ${q.p50} | ${q.p99} | ${q.max} | ${bad} | ${label === 'all' ? cpuText : ''} |`);
      }
    }
    console.log(`\nload 1 min: ${os.loadavg()[0].toFixed(1)}`);

    // 6. The plans of the scheduler's statements as it sends them, with this backlog's rows in place.
    await printPlans(deps, chosen[0]!, today, tomorrow, Math.floor(Date.now() / 1000));
  } finally {
    if (chosen.length) await db.updateTable('reminder_settings').set({ enabled: 0 }).where('reseller_id', 'in', chosen).execute();
    await gateway.close();
    await database.close();
  }

  async function count(q: RawBuilder<unknown>) {
    const r = await (q as RawBuilder<{ n: number | string }>).execute(db);
    return Number(r.rows[0]!.n);
  }

  async function statusCounts(ids: number[]) {
    const rows = await db.selectFrom('reminder_messages').select(['status', sql<number>`count(*)`.as('n')]).where('reseller_id', 'in', ids).groupBy('status').execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<string, number>;
  }
}

/** EXPLAIN of what one tick sends for one account: enabledAccounts, startedSince, channelsBackingOff, dueLines, claimNew, dueAgain. */
async function printPlans(deps: Deps, account: number, from: number, to: number, now: number) {
  const database = deps.database;
  const cases: [string, (db: Deps['database']['db']) => Promise<unknown>][] = [
    ['repo.enabledAccounts', (db) => repo.enabledAccounts(db, 0, 200)],
    ['repo.startedSince', (db) => repo.startedSince(db, account, now - 60)],
    ['repo.channelsBackingOff', (db) => repo.channelsBackingOff(db, account, now)],
    ['repo.dueLines (day, whatsapp)', (db) => repo.dueLines(db, account, from, to, 'day', 'whatsapp', 20)],
    // line 0 does not exist: the statement inserts nothing
    ['repo.claimNew', (db) => repo.claimNew(db, { reseller_id: account, line_id: 0, stage: 'day', exp_date: from, channel: 'whatsapp', recipient: 'x', created_at: now, lease_until: now + 15 })],
    ['repo.dueAgain', (db) => repo.dueAgain(db, now, 500)],
  ];
  console.log(`\nplans (${database.dialect}) of the scheduler's statements for account ${account}, and their time here (median of 20, ms)\n`);
  for (const [name, run] of cases) {
    const [q] = await captureQueries(database, run);
    if (!q) continue;
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await run(database.db);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`${name}: ${times[10]!.toFixed(2)} ms\n  ${(await explain(database, q)).join('\n  ')}`);
  }
  console.log('');
}

interface Sample {
  label: string;
  sentAt: number;
  ms: number;
  ok: boolean;
}

/** Requests on a fixed schedule, taking turns over `targets`, whatever the answers do (open loop). */
function startProbes(base: string, rate: number, targets: [string, string, string][]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const samples: Sample[] = [];
  const inflight = new Set<Promise<void>>();
  let stopped = false;
  const started = performance.now();
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 0) await sleep(wait);
      if (stopped) break;
      const [label, token, path] = targets[i % targets.length]!;
      const sentAt = performance.now();
      const p = new Promise<void>((resolve) => {
        const req = http.get(`${base}${path}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
          res.resume();
          res.on('end', () => {
            samples.push({ label, sentAt, ms: performance.now() - sentAt, ok: (res.statusCode ?? 0) < 300 });
            resolve();
          });
        });
        req.on('error', () => {
          samples.push({ label, sentAt, ms: performance.now() - sentAt, ok: false });
          resolve();
        });
      });
      inflight.add(p);
      void p.then(() => inflight.delete(p));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await Promise.all(inflight);
      agent.destroy();
      return samples;
    },
  };
}

/** An Evolution API stand-in: POST /message/sendText/{instance} -> 201 {key: {id}} after `delayMs`, counted per number. */
async function startGateway(delayMs: number) {
  let requests = 0;
  let first = 0;
  let last = 0;
  let perNumber = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !/^\/message\/sendText\/[^/]+$/.test(req.url ?? '')) return res.writeHead(404).end();
      if (req.headers.apikey !== GATEWAY_KEY) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized"}');
      requests++;
      last = performance.now();
      first ||= last;
      let number = '?';
      try {
        number = String((JSON.parse(Buffer.concat(chunks).toString()) as { number?: unknown }).number);
      } catch {}
      perNumber.set(number, (perNumber.get(number) ?? 0) + 1);
      const answer = () =>
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ key: { remoteJid: `${number}@s.whatsapp.net`, fromMe: true, id: randomBytes(8).toString('hex').toUpperCase() }, status: 'PENDING' }));
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    reset() {
      requests = 0;
      first = 0;
      last = 0;
      perNumber = new Map();
    },
    stats: () => ({ requests, first, last, perNumber }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Cpu {
  /** the server's CPU seconds (BENCH_PID), if known */
  server?: number;
  postgres: number;
  /** this process's (the stand-in, the probes, the polling) */
  bench: number;
  /** the machine's busy CPU seconds */
  busy: number;
}

function sampler(): () => Cpu {
  return () => {
    const own = process.cpuUsage();
    return { server: cpuSeconds(process.env.BENCH_PID), postgres: postgresCpuSeconds(), bench: (own.user + own.system) / 1e6, busy: machineBusySeconds() };
  };
}

function quantiles(ms: number[]) {
  if (ms.length === 0) return { p50: '-', p99: '-', max: '-' };
  const s = [...ms].sort((a, b) => a - b);
  return { p50: percentile(s, 0.5).toFixed(1), p99: percentile(s, 0.99).toFixed(1), max: s[s.length - 1]!.toFixed(1) };
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
