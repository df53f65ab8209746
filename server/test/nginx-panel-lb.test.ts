import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/connection.ts';
import { NGINX, type Nginx, startNginx } from './edge/nginx.ts';
import { LB_CONF, fillPlaceholders } from './edge/panel-lb.ts';
import { PACKAGE_DEFAULTS } from './fixtures.ts';
import { ENGINE } from './helpers.ts';
import { keptCountsMismatches } from './kept-counts-check.ts';
import { ledgerProblems } from './security/state.ts';
import { type FreshDatabase, ServerProcess, freePort, freshDatabase } from './security/server-process.ts';
import { STRONG_PASSWORD } from './security/world.ts';
import { waitFor } from './wait.ts';

// Two compiled servers (node server/dist/main.js) on one fresh PostgreSQL database behind Debian's
// nginx configured with docs/nginx-panel-lb.conf (placeholders filled, nothing else changed).
// - Both start at the same instant on the empty database: one migrates and creates the first
//   admin, both serve.
// - Credit spends (each with an Idempotency-Key) and reads go through nginx while one host is
//   killed with SIGKILL, with a webhook delivery in flight: the clients never see the kill (nginx
//   sends what was cut to the other host), every acknowledged spend is in the database once, a
//   spend the dead host answered, sent again with its key, gets the same answer from the
//   survivor, balances equal their ledger; the survivor delivers the dead host's webhook once its
//   lease runs out and holds every short scheduler lease within its lease time. The killed host is
//   started again and the survivor, holding every lease by then, killed in turn: the restarted
//   host takes each lease over within a few seconds of its running out.
// - One host reaches PostgreSQL through a TCP proxy the test cuts: its /readyz answers 503, its
//   API 504 DATABASE_UNAVAILABLE, and nginx takes it out (passive checks on that 504: it never asks
//   /readyz), so every request through nginx succeeds on the other host; restored, it serves again.

const ADMIN_PASSWORD = 'Balanced-Hosts-8830-lantern';
/** the webhook lease: max(WEBHOOK_LEASE_SECONDS, INTEGRATION_TIMEOUT_MS/1000 + 5) (webhooks/worker.ts) */
const INTEGRATION_TIMEOUT_MS = 4000;
const WEBHOOK_LEASE = Math.max(2, INTEGRATION_TIMEOUT_MS / 1000 + 5);
/** docs/nginx-panel-lb.conf: max_fails=2 fail_timeout=10s */
const FAIL_TIMEOUT_MS = 10_000;

/** A TCP proxy to PostgreSQL that the test can cut (connections refused and dropped) and restore. */
async function cuttableProxy(target: { host: string; port: number }) {
  let cut = false;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (cut) return client.destroy();
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      cut = true;
      for (const s of open) s.destroy();
    },
    restore() {
      cut = false;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };
}

/** The pid among `pids` whose process holds the TCP socket with local port `port` (Linux /proc). */
function socketOwner(port: number, pids: number[]): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && Number.parseInt(cols[1].split(':')[1], 16) === port) inodes.add(cols[9]);
    }
  }
  for (const pid of pids) {
    const fds = `/proc/${pid}/fd`;
    for (const fd of fs.existsSync(fds) ? fs.readdirSync(fds) : []) {
      try {
        const link = fs.readlinkSync(path.join(fds, fd));
        if (inodes.has(link.match(/^socket:\[(\d+)\]$/)?.[1] ?? '')) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/** Lease times here: payments PAYMENTS_TICK_SECONDS + 15 (payments/worker.ts); reminders max(2 ticks, 2 x the integration timeout + 10) (reminders/scheduler.ts). */
const LEASE_SECONDS: Record<string, number> = { payments: 1 + 15, reminders: Math.max(2, Math.ceil(INTEGRATION_TIMEOUT_MS / 1000) * 2 + 10) };

/**
 * Waits until each short scheduler lease of `atKill` is renewed after a kill at `killedAt` (by a
 * live process: the killed one cannot), and checks that one taken over from the killed host was
 * taken within a few seconds of running out (its new `until` minus the lease time is when it was
 * taken). `killedHolders`: the killed host's holder of each lease (default: the holder at the
 * kill). Answers the names now held by another host than the killed one.
 */
async function leasesAfterKill(db: Database['db'], atKill: { name: string; holder: string; until: number }[], killedAt: number, killedHolders?: Map<string, string>): Promise<string[]> {
  const short = atKill.filter((l) => l.name in LEASE_SECONDS);
  expect(short.map((l) => l.name).sort()).toEqual(Object.keys(LEASE_SECONDS).sort());
  const takenOver: string[] = [];
  for (const at of short) {
    const seconds = LEASE_SECONDS[at.name];
    const killed = killedHolders?.get(at.name) ?? at.holder;
    const row = await waitFor(
      async () => {
        const now = await db.selectFrom('scheduler_leases').selectAll().where('name', '=', at.name).executeTakeFirstOrThrow();
        return now.until > at.until ? now : undefined;
      },
      { timeoutMs: (Math.max(at.until - killedAt, 0) + 20) * 1000, everyMs: 200, what: `the ${at.name} lease held after the kill` },
    );
    if (row && row.holder !== killed) {
      takenOver.push(at.name);
      // taken once the dead holder's lease ran out, within a scheduler tick and a loaded machine's slack
      // (a live host that already held it at the kill, its lease having lapsed earlier, just renews it)
      if (at.holder === killed) {
        expect(row.until - seconds, at.name).toBeGreaterThanOrEqual(at.until);
        expect(row.until - seconds, at.name).toBeLessThanOrEqual(at.until + 5);
      }
    }
  }
  return takenOver.sort();
}

interface Answer {
  status: number;
  text: string;
  /** the host process that answered (X-Worker-Pid) */
  pid: number;
  replayed: boolean;
  json(): any;
}

describe.runIf(ENGINE === 'postgres' && (NGINX || process.env.CI))('two hosts behind nginx (docs/nginx-panel-lb.conf) on one PostgreSQL', () => {
  let db: FreshDatabase;
  let database: Database;
  let pgProxy: Awaited<ReturnType<typeof cuttableProxy>>;
  let hostA: ServerProcess; // reaches PostgreSQL through pgProxy
  let hostB: ServerProcess;
  let nginx: Nginx;
  let lb = '';
  let dir = '';
  let receiver: http.Server;
  let hookUrl = '';
  /** webhook deliveries the receiver holds unanswered, with the panel's socket port */
  const held: { res: http.ServerResponse; port: number; id: string }[] = [];
  const delivered: string[] = [];
  let holding = true;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-lb-'));
    db = await freshDatabase('panel_lb');
    const url = new URL(db.url);
    pgProxy = await cuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
    const viaProxy = new URL(db.url);
    viaProxy.port = String(pgProxy.port);

    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        if (holding) {
          held.push({ res, port: req.socket.remotePort as number, id });
          return;
        }
        delivered.push(id);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const env = {
      ADMIN_PASSWORD,
      LOG_LEVEL: 'info', // the first admin's line
      TRUST_PROXY: 'loopback',
      WORKER_PID_HEADER: '1',
      DASHBOARD_CACHE_SECONDS: '0',
      OUTBOUND_ALLOW_NETWORKS: '127.0.0.1/32',
      WEBHOOK_LEASE_SECONDS: '2',
      WEBHOOK_RETRY_BASE_MS: '200',
      INTEGRATION_TIMEOUT_MS: String(INTEGRATION_TIMEOUT_MS),
      REMINDERS_TICK_SECONDS: '1',
      PAYMENTS_TICK_SECONDS: '1',
    };
    hostA = new ServerProcess(await freePort(), { ...env, DATABASE_URL: viaProxy.toString() });
    hostB = new ServerProcess(await freePort(), { ...env, DATABASE_URL: db.url });
    // the same instant, on the empty database
    await Promise.all([hostA.start(), hostB.start()]);

    const port = await freePort();
    lb = `http://127.0.0.1:${port}`;
    const conf = fillPlaceholders(fs.readFileSync(LB_CONF, 'utf8'), {
      __LISTEN__: `127.0.0.1:${port}`,
      __SERVER_NAME__: 'panel.test',
      __PANEL_HOST_1__: `127.0.0.1:${hostA.port}`,
      __PANEL_HOST_2__: `127.0.0.1:${hostB.port}`,
    });
    nginx = await startNginx(dir, port, conf);
    database = openDatabase(db.url);
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all([hostA?.stop('SIGKILL'), hostB?.stop('SIGKILL')]);
    for (const h of held) h.res.destroy();
    await new Promise((r) => receiver?.close(r));
    await pgProxy?.close();
    await database?.close();
    await db?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function call(base: string, method: string, url: string, opts: { token?: string; body?: unknown; key?: string } = {}): Promise<Answer> {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(opts.key ? { 'idempotency-key': opts.key } : {}),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    return { status: res.status, text, pid: Number(res.headers.get('x-worker-pid')), replayed: res.headers.get('idempotent-replayed') === 'true', json: () => JSON.parse(text) };
  }
  const must = async (method: string, url: string, opts: { token?: string; body?: unknown; key?: string } = {}) => {
    const res = await call(lb, method, url, opts);
    if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${res.text}\n${nginx.errorLog()}`);
    return res.json();
  };

  it('both hosts, started together on the empty database, migrated it once and serve', async () => {
    for (const host of [hostA, hostB]) {
      const ready = await call(host.base, 'GET', '/readyz');
      expect(ready.status, host.output.join('\n')).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
    }
    expect([hostA, hostB].filter((s) => s.output.some((l) => l.includes('First admin created')))).toHaveLength(1);
    const admins = await database.db.selectFrom('resellers').select('username').execute();
    expect(admins).toEqual([{ username: 'admin' }]);
    // nginx spreads new requests over both
    const pids = new Set<number>();
    for (let i = 0; i < 6; i++) pids.add((await call(lb, 'GET', '/healthz')).pid);
    expect(pids).toEqual(new Set([hostA.child?.pid, hostB.child?.pid]));
  });

  interface Op {
    actor: { id: number; token: string; lines: number[] };
    path: string;
    body: unknown;
    key: string;
  }
  interface Acked extends Op {
    answer: Answer;
  }

  it('a host killed with SIGKILL under load: no client sees it, every acknowledged spend is kept once, its leases pass to the survivor', { timeout: 180_000 }, async () => {
    // ---- set-up through nginx ----
    const admin = (await must('POST', '/api/auth/sign-in', { body: { username: 'admin', password: ADMIN_PASSWORD } })).token as string;
    const groups: Record<string, number> = {};
    for (const g of (await must('GET', '/api/datacomplements', { token: admin })).groups) groups[g.type] ??= g.group_id;
    const bouquet = (await must('POST', '/api/admin/bouquets', { token: admin, body: { bouquet_name: 'lb' } })).id;
    const pkg = async (name: string, credits: number) =>
      (await must('POST', '/api/admin/packages', { token: admin, body: { ...PACKAGE_DEFAULTS, package_name: name, official_credits: credits, bouquets: [String(bouquet)] } })).id as number;
    const packages = [await pkg('lb one', 1), await pkg('lb two', 2)];
    const signIn = async (username: string) => (await must('POST', '/api/auth/sign-in', { body: { username, password: STRONG_PASSWORD } })).token as string;
    const masterRow = await must('POST', '/api/resellers', { token: admin, body: { username: 'lb_master', password: STRONG_PASSWORD, member_group_id: groups.master, credits: 100_000 } });
    const master = { id: masterRow.id as number, token: await signIn('lb_master'), lines: [] as number[] };
    const resellers: (typeof master)[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await must('POST', '/api/resellers', { token: master.token, body: { username: `lb_res${i}`, password: STRONG_PASSWORD, member_group_id: groups.reseller, credits: 40 } });
      resellers.push({ id: r.id, token: await signIn(`lb_res${i}`), lines: [] });
    }
    const spenders = [master, ...resellers];
    expect((await call(lb, 'POST', '/api/webhooks', { token: admin, body: { url: hookUrl, events: ['line.created'] } })).status).toBe(201);

    // ---- the load: spends with a key, and reads, through nginx ----
    const acked: Acked[] = [];
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    let stopping = false;
    const operation = (): Op => {
      const roll = Math.random();
      const key = `lb-${randomBytes(8).toString('hex')}`;
      if (roll < 0.35) return { actor: master, path: `/api/resellers/${resellers[randomInt(3)].id}/credits`, body: { value: randomInt(1, 4) }, key };
      const actor = spenders[randomInt(spenders.length)];
      if (roll < 0.75 || actor.lines.length === 0) return { actor, path: '/api/users', body: { package_id: packages[randomInt(2)] }, key };
      return { actor, path: `/api/users/${actor.lines[randomInt(actor.lines.length)]}/renew`, body: { package_id: packages[randomInt(2)] }, key };
    };
    const worker = async () => {
      let retry: Op | undefined;
      while (!stopping) {
        const op = retry ?? operation();
        retry = undefined;
        let res: Answer;
        try {
          // a read beside each spend
          const read = await call(lb, 'GET', '/api/profile', { token: op.actor.token });
          if (read.status !== 200) failures.push(`GET /api/profile -> ${read.status} ${read.text}`);
          res = await call(lb, 'POST', op.path, { token: op.actor.token, body: op.body, key: op.key });
        } catch (err) {
          failures.push(`${op.path}: ${(err as Error).message}`);
          retry = op;
          continue;
        }
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status < 300) {
          acked.push({ ...op, answer: res });
          if (op.path === '/api/users') op.actor.lines.push(res.json().id);
        } else if (res.status === 503 && res.json().code === 'BUSY') {
          retry = op; // nothing changed: sent again with its key, as a client does
        } else if (!(res.status === 409 && res.json().code === 'INSUFFICIENT_CREDITS')) {
          failures.push(`${op.path} -> ${res.status} ${res.text}`);
        }
      }
    };
    const load = Array.from({ length: 6 }, worker);
    await waitFor(() => acked.length >= 30, { timeoutMs: 60_000, what: '30 acknowledged spends' });

    // ---- a webhook delivery in flight, and the host sending it killed ----
    expect((await call(lb, 'POST', '/api/users', { token: admin, body: { package_id: packages[0] }, key: 'lb-admin-line' })).status).toBe(201);
    await waitFor(() => held.length > 0, { what: 'the webhook delivery in flight' });
    const pids = [hostA.child?.pid as number, hostB.child?.pid as number];
    const victimPid = socketOwner(held[0].port, pids);
    expect(victimPid, 'the host sending the webhook').toBeDefined();
    const victim = victimPid === pids[0] ? hostA : hostB;
    const survivor = victim === hostA ? hostB : hostA;
    const survivorPid = survivor.child?.pid as number;
    const leasesAtKill = await database.db.selectFrom('scheduler_leases').selectAll().execute();
    const deliveryAtKill = await database.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', held[0].id).executeTakeFirstOrThrow();
    const ackedBeforeKill = acked.length;
    const killedAt = Math.floor(Date.now() / 1000);
    expect((await victim.stop('SIGKILL')).signal).toBe('SIGKILL');
    const ackedAtDeath = acked.length;
    holding = false;
    for (const h of held.splice(0)) h.res.destroy();

    await waitFor(() => acked.length >= ackedBeforeKill + 30, { timeoutMs: 60_000, what: '30 more acknowledged spends after the kill' });
    stopping = true;
    await Promise.all(load);
    const afterKill = acked.slice(ackedAtDeath); // answered once the killed host was gone
    console.log(
      `lb: acknowledged ${acked.length} (${ackedBeforeKill} before the kill), answers ${JSON.stringify(statuses)}, ` +
        `answered by the killed host ${acked.filter((a) => a.answer.pid === victimPid).length}, client failures ${failures.length}`,
    );
    // nginx sent what the kill cut to the survivor: the clients saw no error at all
    expect(failures, nginx.errorLog()).toEqual([]);
    expect(afterKill.every((a) => a.answer.pid === survivorPid)).toBe(true);

    // ---- a spend the dead host answered, sent again with its key: the survivor's same answer ----
    const answeredByVictim = acked.filter((a) => a.answer.pid === victimPid).slice(-5);
    expect(answeredByVictim.length).toBeGreaterThan(0);
    for (const a of answeredByVictim) {
      const again = await call(lb, 'POST', a.path, { token: a.actor.token, body: a.body, key: a.key });
      expect({ status: again.status, pid: again.pid, replayed: again.replayed }).toEqual({ status: a.answer.status, pid: survivorPid, replayed: true });
      expect(again.json()).toEqual(a.answer.json());
    }

    // ---- the database: every acknowledged spend once, balances equal their ledger ----
    const dbx = database.db;
    expect(await ledgerProblems(dbx)).toEqual([]);
    const doubles = await dbx
      .selectFrom('credit_ledger')
      .select(['reseller_id', 'idempotency_key', 'reason', (eb) => eb.fn.countAll<number>().as('n')])
      .where('idempotency_key', 'is not', null)
      .groupBy(['reseller_id', 'idempotency_key', 'reason'])
      .having(sql`count(*)`, '>', 1)
      .execute();
    expect(doubles).toEqual([]);
    const onFile = new Set(
      (await dbx.selectFrom('credit_ledger').select(['reseller_id', 'idempotency_key']).where('idempotency_key', 'is not', null).execute()).map((r) => `${r.reseller_id}:${r.idempotency_key}`),
    );
    expect(acked.filter((a) => !onFile.has(`${a.actor.id}:${a.key}`)).map((a) => a.key)).toEqual([]);
    const lines = Number((await dbx.selectFrom('lines').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    expect(lines).toBe(acked.filter((a) => a.path === '/api/users').length + 1); // + the admin's
    expect(await keptCountsMismatches(dbx)).toEqual([]);

    // ---- the dead host's leases: its webhook delivery is sent by the survivor once the lease ran out ----
    expect(deliveryAtKill.state).toBe('pending');
    expect(deliveryAtKill.lease_until).toBeGreaterThanOrEqual(killedAt);
    await waitFor(() => delivered.includes(deliveryAtKill.event_id), { timeoutMs: (WEBHOOK_LEASE + 20) * 1000, what: 'the webhook delivery taken over' });
    // the receiver has it; the survivor records the answer right after (wait for that, not for a moment)
    const deliveryAfter = await waitFor(
      async () => {
        const row = await dbx.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryAtKill.id).executeTakeFirstOrThrow();
        return row.state === 'delivered' ? row : undefined;
      },
      { what: 'the taken-over delivery recorded as delivered' },
    ).then((row) => row!);
    // not before the dead host's lease ran out (how soon after is a timing, left to the waitFor above)
    expect(deliveryAfter.delivered_at as number).toBeGreaterThanOrEqual(deliveryAtKill.lease_until as number);
    expect(delivered.filter((id) => id === deliveryAtKill.event_id)).toHaveLength(1);

    // ---- the scheduler leases: held again within their lease time, by the survivor ----
    const first = await leasesAfterKill(dbx, leasesAtKill, killedAt);
    console.log(`lb: scheduler leases taken over from the killed host: ${first.join(', ') || 'none (the survivor held them)'}`);

    // The survivor, alone since, holds them all now: the killed host is started again and the
    // survivor killed in turn, so the restarted host must hold every lease after. On a loaded
    // machine the survivor may let a lease lapse while the other host starts, which then takes it
    // before the kill: held by the restarted host either way, so the holders are noted now.
    const survivorHolders = new Map((await dbx.selectFrom('scheduler_leases').select(['name', 'holder']).execute()).map((l) => [l.name, l.holder]));
    await victim.start();
    await waitFor(async () => (await call(victim.base, 'GET', '/readyz')).status === 200, { what: 'the restarted host ready' });
    const leasesAtSecondKill = await dbx.selectFrom('scheduler_leases').selectAll().execute();
    const secondKillAt = Math.floor(Date.now() / 1000);
    expect((await survivor.stop('SIGKILL')).signal).toBe('SIGKILL');
    expect(await leasesAfterKill(dbx, leasesAtSecondKill, secondKillAt, survivorHolders)).toEqual(['payments', 'reminders']);
  });

  it('a host cut off from PostgreSQL: /readyz 503, nginx takes it out and every request succeeds on the other; restored, it serves again', { timeout: 120_000 }, async () => {
    // the killed host is started again; both serve through nginx (the killed one once its fail_timeout passed)
    for (const host of [hostA, hostB]) if (host.child?.exitCode !== null || host.child?.signalCode !== null) await host.start();
    const pidA = hostA.child?.pid as number;
    const pidB = hostB.child?.pid as number;
    await waitFor(async () => (await call(hostA.base, 'GET', '/readyz')).status === 200, { what: 'host A ready' });
    const seen = new Set<number>();
    await waitFor(async () => seen.add((await call(lb, 'GET', '/healthz')).pid).size === 2 && seen.has(pidA) && seen.has(pidB), {
      timeoutMs: FAIL_TIMEOUT_MS + 20_000,
      everyMs: 200,
      what: 'nginx sending to both hosts',
    });
    const token = (await must('POST', '/api/auth/sign-in', { body: { username: 'lb_master', password: STRONG_PASSWORD } })).token as string;
    const reseller = (await database.db.selectFrom('resellers').select('id').where('username', '=', 'lb_res0').executeTakeFirstOrThrow()).id;

    pgProxy.cut();
    const unready = await waitFor(
      async () => {
        const r = await call(hostA.base, 'GET', '/readyz');
        return r.status === 503 ? r : undefined;
      },
      { what: "host A's /readyz answering 503" },
    );
    expect(unready?.json()).toEqual({ status: 'unavailable', reason: 'database unreachable' });
    // its API, asked directly: the one 504 the panel gives (what nginx counts as a failed host)
    const direct = await call(hostA.base, 'GET', '/api/profile', { token });
    expect(direct.status).toBe(504);
    expect(direct.json().code).toBe('DATABASE_UNAVAILABLE');
    const failedOnA = () => hostA.output.filter((l) => l.includes('"msg":"database unreachable"')).length;
    await waitFor(() => failedOnA() > 0, { what: "host A's log of the 504" });
    const failedBefore = failedOnA();

    // through nginx: reads and keyed spends all succeed, all answered by host B
    const started = Date.now();
    const answers: Answer[] = [];
    for (let i = 0; i < 30; i++) {
      answers.push(await call(lb, 'GET', '/api/profile', { token }));
      answers.push(await call(lb, 'GET', '/api/users', { token }));
      answers.push(await call(lb, 'POST', `/api/resellers/${reseller}/credits`, { token, body: { value: 1 }, key: `lb-cut-${i}` }));
    }
    const elapsed = Date.now() - started;
    expect(answers.filter((a) => a.status >= 300).map((a) => `${a.status} ${a.text}`)).toEqual([]);
    expect(new Set(answers.map((a) => a.pid))).toEqual(new Set([pidB]));
    // nginx took A out after max_fails (2) of its answers, then tried it once per fail_timeout:
    // A saw a handful of the 90 requests, not half of them
    const triedOnA = failedOnA() - failedBefore;
    console.log(`lb: database cut: 90 requests in ${elapsed} ms, ${triedOnA} of them tried on host A first`);
    expect(triedOnA).toBeGreaterThanOrEqual(1);
    expect(triedOnA).toBeLessThanOrEqual(2 * (Math.floor(elapsed / FAIL_TIMEOUT_MS) + 1));

    pgProxy.restore();
    await waitFor(async () => (await call(hostA.base, 'GET', '/readyz')).status === 200, { what: 'host A ready again' });
    // nginx tries it again after fail_timeout, and it answers
    await waitFor(async () => (await call(lb, 'GET', '/api/profile', { token })).pid === pidA, { timeoutMs: FAIL_TIMEOUT_MS + 20_000, everyMs: 200, what: 'nginx sending to host A again' });
    expect(await ledgerProblems(database.db)).toEqual([]);
  });
});
