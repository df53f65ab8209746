import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type P2pStandin, startP2pStandin } from '../../standins/p2p-server.ts';
import { openDatabase } from '../src/db/connection.ts';
import { accountState } from '../src/modules/p2p/rules.ts';
import { ENGINE } from './helpers.ts';
import { PACKAGE_DEFAULTS } from './fixtures.ts';
import { type FreshDatabase, ServerProcess, freePort, freshDatabase } from './security/server-process.ts';

// The real server process delivering to the P2P server stand-in is killed (SIGKILL) while a
// delivery is in flight (the stand-in holds it unanswered): after the restart the delivery is
// sent again and applied; nothing is lost or applied twice. Then SIGTERM with a delivery in
// flight: the worker stops, the process exits 0 at once, and the next start delivers it.
// P2P_CRASH_KILLS (default 2) sets the number of kills.

const KILLS = Number(process.env.P2P_CRASH_KILLS ?? 2);
const ADMIN_PASSWORD = 'P2p-crash-admin-7391';
const KEY = 'crash-p2p-key';

describe(`P2P deliveries across SIGKILL and SIGTERM (${ENGINE})`, () => {
  let db: FreshDatabase;
  let p2p: P2pStandin;
  let server: ServerProcess;
  let token = '';

  beforeAll(async () => {
    db = await freshDatabase('panel_p2p_crash');
    p2p = await startP2pStandin({ key: KEY });
    server = new ServerProcess(await freePort(), {
      DATABASE_URL: db.url,
      ADMIN_PASSWORD,
      P2P_API_URL: p2p.url,
      P2P_API_KEY: KEY,
      P2P_RETRY_BASE_MS: '100',
      P2P_RETRY_MAX_SECONDS: '1',
      // no outbound timeout within the test's time: a worker that waited for a held delivery
      // instead of aborting it would keep the process from exiting, and the test would fail
      INTEGRATION_TIMEOUT_MS: '3600000',
    });
    await server.start();
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await p2p?.close();
    await db?.drop();
  });

  async function api(method: string, path: string, body?: unknown) {
    const res = await fetch(`${server.base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  async function waitDrained(timeoutMs = 30_000) {
    const started = Date.now();
    for (;;) {
      const s = await api('GET', '/api/admin/p2p/outbox');
      if (s.pending + s.failed === 0) return Date.now() - started;
      if (Date.now() - started > timeoutMs) throw new Error(`not drained: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it(`redelivers what was in flight at each of ${KILLS} SIGKILLs; SIGTERM stops the worker and exits 0`, { timeout: 120_000 + KILLS * 30_000 }, async () => {
    token = (await api('POST', '/api/auth/sign-in', { username: 'admin', password: ADMIN_PASSWORD })).token;
    const bouquet = (await api('POST', '/api/admin/bouquets', { bouquet_name: 'crash' })).id;
    const pkg = (await api('POST', '/api/admin/packages', { ...PACKAGE_DEFAULTS, package_name: 'crash', bouquets: [String(bouquet)] })).id;
    const accounts: number[] = [];
    const cutKeys: string[] = [];

    for (let k = 0; k < KILLS; k++) {
      p2p.hold(true);
      const seen = p2p.received.length;
      for (let i = 0; i < 3; i++) accounts.push((await api('POST', '/api/p2p/users', { name: `crash ${k}.${i}`, username: `crash_${k}_${i}`, package_id: pkg })).id);
      await api('POST', `/api/p2p/users/${accounts[0]}/renew`, { months: 1 });
      await p2p.waitForRequests(seen + 1);
      const held = p2p.received.slice(seen);
      cutKeys.push(...held.map((r) => r.idempotencyKey as string));
      const exit = await server.stop('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      p2p.hold(false); // the held requests were cut by the kill: never applied
      expect(p2p.applied.filter((r) => held.includes(r))).toEqual([]);
      await server.start();
      token = (await api('POST', '/api/auth/sign-in', { username: 'admin', password: ADMIN_PASSWORD })).token;
    }
    const drainMs = await waitDrained();

    // SIGTERM with a delivery in flight: the worker aborts it (the held answer never comes), the process exits 0.
    p2p.hold(true);
    const seen = p2p.received.length;
    await api('POST', `/api/p2p/users/${accounts[1]}/block`);
    await p2p.waitForRequests(seen + 1);
    const term = await server.stop('SIGTERM');
    p2p.hold(false);
    expect(term.code).toBe(0);
    const database = openDatabase(db.url);
    try {
      const waiting = await database.db.selectFrom('outbox').select(['login', 'method']).where('delivered_at', 'is', null).execute();
      expect(waiting).toEqual([{ login: 'crash_0_1@p2p.local', method: 'PUT' }]);
    } finally {
      await database.close();
    }
    await server.start();
    token = (await api('POST', '/api/auth/sign-in', { username: 'admin', password: ADMIN_PASSWORD })).token;
    await waitDrained();
    await server.stop('SIGTERM');

    // every cut delivery was sent again after the restart and applied once; the server holds the panel's state
    const received = p2p.received.map((r) => r.idempotencyKey);
    for (const key of cutKeys) expect(received.filter((k) => k === key).length, `${key} sent again`).toBeGreaterThanOrEqual(2);
    const applied = p2p.applied.map((r) => r.idempotencyKey);
    expect(new Set(applied).size).toBe(applied.length);
    const check = openDatabase(db.url);
    try {
      const rows = await check.db.selectFrom('p2p_accounts').selectAll().execute();
      const outbox = await check.db.selectFrom('outbox').select('id').execute();
      expect(applied.length).toBe(outbox.length);
      expect(Object.fromEntries(p2p.accounts)).toEqual(Object.fromEntries(rows.map((r) => [r.email, accountState(r)])));
      expect(rows.every((r) => r.sync_state === 'synced')).toBe(true);
      console.log(
        `p2p crash (${ENGINE}): ${KILLS} SIGKILLs with ${cutKeys.length} deliveries in flight, all sent again after the restart (drained in ${drainMs} ms); ` +
          `${outbox.length} deliveries applied once each; SIGTERM with one in flight exited 0 and the next start delivered it`,
      );
    } finally {
      await check.close();
    }
  });
});
