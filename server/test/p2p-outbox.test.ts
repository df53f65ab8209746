import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Received } from '../../standins/p2p-server.ts';
import { openDatabase } from '../src/db/connection.ts';
import { accountState, lineState } from '../src/modules/p2p/rules.ts';
import { type OutboxWorker, startOutboxWorker } from '../src/modules/p2p/worker.ts';
import { ENGINE } from './helpers.ts';
import { type Actor, type P2pWorld, drained, p2pWorld, undelivered } from './p2p-fixtures.ts';
import { waitFor } from './wait.ts';

// The P2P server kept in sync through the outbox: while it is away (or failing) every change waits;
// once back, every change is delivered once, in order per account, and the server ends up holding
// exactly what the panel holds. On PostgreSQL several workers (server processes) share the queue.
// P2P_OUTAGE_CHANGES (default 120) sets the size of the outage; `npm run p2p-outage` runs 2,000.

const CHANGES = Number(process.env.P2P_OUTAGE_CHANGES ?? 120);

describe(`P2P outbox (${ENGINE})`, () => {
  let w: P2pWorld;
  let M: Actor;
  const db = () => w.t.database.db;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    w.t.call(M.token, { method, url, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    w = await p2pWorld({ config: { p2pRetryBaseMs: 100, p2pRetryMaxMs: 2000 } });
    w.startWorker(100);
    M = await w.reseller('outbox_master', 'master', 1_000_000);
  });
  afterAll(() => w?.close());
  afterEach(async () => {
    w.p2p.failWith(null);
    await w.p2p.comeBack();
  });

  /** A day of a reseller's work: creations, renewals, blocks, renames, password changes, removals, lines in and out of P2P. */
  async function makeChanges(n: number, tag: string): Promise<number> {
    const accounts: number[] = [];
    const lines: number[] = [];
    let made = 0;
    const ok = async (res: ReturnType<typeof call>) => {
      const r = await res;
      expect(r.statusCode, r.body).toBeLessThan(300);
      made++;
      return r;
    };
    for (let i = 0; made < n; i++) {
      const pick = <T>(list: T[]) => list[(i * 7) % list.length] as T;
      switch (i % 9) {
        case 0:
        case 1:
          accounts.push((await ok(call('POST', '/api/p2p/users', { name: `Cliente ${tag}${i}`, username: `${tag}_${i}`, package_id: w.cheap }))).json().id);
          break;
        case 2:
          if (accounts.length) await ok(call('POST', `/api/p2p/users/${pick(accounts)}/renew`, { months: 1 + (i % 12) }));
          break;
        case 3: {
          if (!accounts.length) break;
          const id = pick(accounts);
          const status = (await call('GET', `/api/p2p/users/${id}`)).json().status;
          await ok(call('POST', `/api/p2p/users/${id}/${status === 1 ? 'block' : 'unblock'}`));
          break;
        }
        case 4:
          if (accounts.length) await ok(call('PUT', `/api/p2p/users/${pick(accounts)}`, { username: `${tag}_renamed_${i}`, password: `pw${i}x` }));
          break;
        case 5:
          if (accounts.length > 3) {
            const id = accounts.splice((i * 7) % accounts.length, 1)[0] as number;
            await ok(call('DELETE', `/api/p2p/users/${id}`));
          }
          break;
        case 6: {
          const line = (await call('POST', '/api/users', { package_id: w.cheap, username: `${tag}_line_${i}` })).json().id;
          await ok(call('POST', `/api/users/${line}/change_system`, { system_id: 2 + (i % 2) }));
          lines.push(line);
          break;
        }
        case 7:
          if (lines.length) await ok(call('POST', `/api/users/${pick(lines)}/renew`, { months: 1 }));
          break;
        case 8:
          if (lines.length > 2) await ok(call('POST', `/api/users/${lines.splice(0, 1)[0]}/change_system`, { system_id: 1 }));
          break;
      }
    }
    return made;
  }

  /** Each delivery applied once, in outbox order per subject, and the server holds what the panel holds. */
  async function expectInSync(since: number) {
    const rows = await db().selectFrom('outbox').select(['id', 'subject_kind', 'subject_id', 'delivered_at']).where('id', '>', since).orderBy('id').execute();
    expect(rows.every((r) => r.delivered_at !== null)).toBe(true);
    const idOf = (r: Received) => Number(r.idempotencyKey?.replace('outbox-', ''));
    const applied = w.p2p.applied.filter((r) => idOf(r) > since).map(idOf);
    expect(applied.length, 'one application per delivery').toBe(rows.length);
    expect(new Set(applied).size, 'never applied twice').toBe(applied.length);
    const subjectOf = new Map(rows.map((r) => [r.id, `${r.subject_kind}:${r.subject_id}`]));
    const lastBySubject = new Map<string, number>();
    for (const id of applied) {
      const subject = subjectOf.get(id) as string;
      expect(id, `in order for ${subject}`).toBeGreaterThan(lastBySubject.get(subject) ?? 0);
      lastBySubject.set(subject, id);
    }
    // the server's state equals the panel's: every live account and P2P line, nothing else
    const expected = new Map<string, object>();
    for (const a of await db().selectFrom('p2p_accounts').selectAll().where('deleted_at', 'is', null).execute()) expected.set(a.email, accountState(a));
    for (const l of await db().selectFrom('lines').selectAll().where('deleted_at', 'is', null).where('system', 'in', [2, 3]).execute()) expected.set(l.username, lineState(l));
    expect(Object.fromEntries(w.p2p.accounts)).toEqual(Object.fromEntries(expected));
    const states = await db().selectFrom('p2p_accounts').select('sync_state').distinct().execute();
    expect(states.map((s) => s.sync_state)).toEqual(['synced']);
    const lineStates = await db().selectFrom('lines').select('p2p_sync_state').distinct().where('p2p_sync_state', 'is not', null).execute();
    expect(lineStates.filter((s) => s.p2p_sync_state !== 'synced')).toEqual([]);
    return { deliveries: rows.length };
  }

  const lastOutboxId = async () => Number((await db().selectFrom('outbox').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst())?.m ?? 0);

  it(`P2P server away: ${CHANGES} changes wait (pending/failed); back up, every change is delivered once, in order, and the states match`, { timeout: 120_000 }, async () => {
    const since = await lastOutboxId();
    await w.p2p.goAway();
    const started = Date.now();
    const made = await makeChanges(CHANGES, 'away');
    const madeMs = Date.now() - started;
    const waiting = await undelivered(w.t);
    expect(waiting).toBeGreaterThanOrEqual(made); // a rename is two deliveries
    // a few retries meet a closed port: the worker records each attempt on its outbox row
    const attempts = async () => Number((await db().selectFrom('outbox').select((eb) => eb.fn.sum<number>('attempts').as('n')).where('id', '>', since).executeTakeFirst())?.n ?? 0);
    await waitFor(async () => (await attempts()) >= 3, { what: 'attempts against the closed port' });
    const states = await db().selectFrom('p2p_accounts').select('sync_state').where('deleted_at', 'is', null).execute();
    expect(states.every((s) => s.sync_state !== 'synced')).toBe(true);
    const failedAttempts = await attempts();
    expect(failedAttempts).toBeGreaterThan(0);
    const status = (await w.t.call(w.admin, { method: 'GET', url: '/api/admin/p2p/outbox' })).json();
    expect(status.pending + status.failed).toBe(waiting);
    expect(w.p2p.received.filter((r) => r.at >= started)).toEqual([]);

    const back = Date.now();
    await w.p2p.comeBack();
    const drainMs = await drained(w.t, 60_000);
    const { deliveries } = await expectInSync(since);
    const figures = `outage (${ENGINE}): ${made} changes made while the P2P server was away (${deliveries} deliveries, made in ${madeMs} ms, ${failedAttempts} refused attempts meanwhile); back up: all ${deliveries} delivered once, in order, in ${drainMs} ms (retry backoff 100 ms doubling to 2 s; ${Date.now() - back} ms to the final check)`;
    console.log(figures);
  });

  it('P2P server answering 503: the failing attempts are retried until it recovers, then applied once each', async () => {
    const since = await lastOutboxId();
    w.p2p.failWith(503);
    const made = await makeChanges(30, 'fail');
    for (let i = 0; i < 100 && w.p2p.received.filter((r) => r.status === 503).length < 10; i++) await new Promise((r) => setTimeout(r, 50));
    const refused = w.p2p.received.filter((r) => r.status === 503).length;
    expect(refused).toBeGreaterThan(0);
    const failing = await db().selectFrom('p2p_accounts').select(['sync_state', 'sync_error']).where('sync_state', '=', 'failed').execute();
    expect(failing.length).toBeGreaterThan(0);
    expect(failing[0]?.sync_error).toContain('503');
    w.p2p.failWith(null);
    const drainMs = await drained(w.t, 30_000);
    await expectInSync(since);
    console.log(`503s (${ENGINE}): ${made} changes, ${refused} attempts refused with 503, then delivered once each in ${drainMs} ms`);
  });

  it('the online list answers UPSTREAM_ERROR (502) while the P2P server is away, never a fake empty list', async () => {
    await w.p2p.goAway();
    const res = await w.t.call(M.token, { method: 'GET', url: '/api/p2p/users/online' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'UPSTREAM_ERROR', message: expect.stringContaining('P2P server') });
    w.p2p.failWith(500);
    await w.p2p.comeBack();
    const failed = await w.t.call(M.token, { method: 'GET', url: '/api/p2p/users/online' });
    expect(failed.json()).toMatchObject({ code: 'UPSTREAM_ERROR', message: expect.stringContaining('500') });
    w.p2p.failWith(null);
    w.p2p.online = [];
    expect((await w.t.call(M.token, { method: 'GET', url: '/api/p2p/users/online' })).json()).toEqual({ data: [] });
  });

  it('a wrong P2P_API_KEY is a failed delivery (401 shown), retried, nothing applied', async () => {
    const since = await lastOutboxId();
    const saved = w.t.deps.config.p2pApiKey;
    w.t.deps.config.p2pApiKey = 'wrong-key';
    try {
      const a = await w.account(M.token, { username: 'wrong_key' });
      // the worker's first attempt (polls every 100 ms): up to 10 s on a loaded machine (was 100 polls, about 2 s)
      for (const until = Date.now() + 10_000; Date.now() < until && (await call('GET', `/api/p2p/users/${a.id}`)).json().sync_state !== 'failed'; ) await new Promise((r) => setTimeout(r, 20));
      expect((await call('GET', `/api/p2p/users/${a.id}`)).json()).toMatchObject({ sync_state: 'failed', sync_error: expect.stringContaining('401') });
      expect(w.p2p.accounts.has('wrong_key@p2p.local')).toBe(false);
    } finally {
      w.t.deps.config.p2pApiKey = saved;
    }
    await drained(w.t, 10_000);
    await expectInSync(since);
  });

  it.skipIf(ENGINE !== 'postgres')('several server processes share the queue: FOR UPDATE SKIP LOCKED, one delivery in flight per account, none twice', { timeout: 60_000 }, async () => {
    // Two more workers, each on its own connection pool (what two more server processes are to PostgreSQL).
    await w.worker?.stop();
    const since = await lastOutboxId();
    const extra = [openDatabase(w.t.deps.config.databaseUrl), openDatabase(w.t.deps.config.databaseUrl)];
    const workers: OutboxWorker[] = [];
    const receivedBefore = w.p2p.received.length;
    try {
      await w.p2p.goAway(); // queue everything first, so all three start on a full queue
      for (let i = 0; i < 40; i++) {
        const { id } = await w.account(M.token, { username: `multi_${i}` });
        await call('POST', `/api/p2p/users/${id}/renew`, { months: 1 });
        await call('POST', `/api/p2p/users/${id}/block`);
        await call('PUT', `/api/p2p/users/${id}`, { password: `multi${id}` });
      }
      w.p2p.delayMs = 15; // each request takes a while: two in flight for one login would overlap
      await w.p2p.comeBack();
      workers.push(startOutboxWorker(w.t.deps, { pollMs: 20, batch: 5, log: () => {} }));
      for (const database of extra) workers.push(startOutboxWorker({ config: w.t.deps.config, database }, { pollMs: 20, batch: 5, log: () => {} }));
      const drainMs = await drained(w.t, 30_000);
      await expectInSync(since);
      const counts = workers.map((x) => x.delivered);
      const received = w.p2p.received.slice(receivedBefore).filter((r) => r.login?.startsWith('multi_'));
      const keys = received.map((r) => r.idempotencyKey);
      console.log(`multi-process (${ENGINE}): 3 workers delivered ${counts.join(' + ')} = ${counts.reduce((a, b) => a + b, 0)} in ${drainMs} ms; most requests in flight for one login: ${w.p2p.maxInFlightPerLogin}; requests received twice: ${keys.length - new Set(keys).size}`);
      expect(counts.filter((n) => n > 0).length, 'every worker took a share').toBe(3);
      expect(w.p2p.maxInFlightPerLogin).toBe(1);
      expect(keys.length - new Set(keys).size).toBe(0);
    } finally {
      w.p2p.delayMs = 0;
      for (const x of workers) await x.stop();
      for (const database of extra) await database.close();
      w.startWorker(100);
    }
  });
});
