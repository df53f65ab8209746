import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { prepareDatabase } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { LATEST_MIGRATION } from '../src/db/migrations/index.ts';
import { createLine } from './fixtures.ts';
import { type P2pWorld, p2pWorld } from './p2p-fixtures.ts';
import { ADMIN_PASSWORD, ENGINE, createTestContext } from './helpers.ts';

// What an operator's tools ask (docs/operations.md): /healthz, /readyz, /metrics.

const TOKEN = 'metrics-token-for-the-test-0123';

/** `name{labels} value` of a Prometheus text exposition; undefined when absent. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe(`health and readiness (${ENGINE})`, () => {
  it('/healthz and /readyz answer without a session; /readyz 503 while the migrations are not current', async () => {
    const t = await createTestContext();
    try {
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });

      // a newer release migrated further (a rolling upgrade): this older host stays ready and can restart
      const future = { name: '999_a_newer_release', timestamp: new Date().toISOString() };
      await t.database.db.insertInto('kysely_migration' as never).values(future as never).execute();
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect(await prepareDatabase(t.deps)).toBeNull();
      await t.database.db.deleteFrom('kysely_migration' as never).where('name' as never, '=', future.name as never).execute();

      // a database an older release left (its last migration missing): not ready until migrated
      await t.database.db.deleteFrom('kysely_migration' as never).where('name' as never, '=', LATEST_MIGRATION as never).execute();
      const behind = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(behind.statusCode).toBe(503);
      expect(behind.json()).toEqual({ status: 'unavailable', reason: 'database migrations are not current' });
      expect(behind.headers['cache-control']).toBe('no-store');
      // the process itself still serves
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it.runIf(ENGINE === 'postgres')('/readyz 503 while the database is unreachable; /healthz still 200', async () => {
    const url = 'postgres://postgres@127.0.0.1:1/nowhere';
    const config = loadConfig({ DATABASE_URL: url, ADMIN_PASSWORD });
    const database = openDatabase(url, config);
    const app = await buildApp({ config, database }, { logger: false });
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', reason: 'database unreachable' });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe(`metrics (${ENGINE})`, () => {
  it('/metrics is off (404) without METRICS_TOKEN', async () => {
    const t = await createTestContext();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    } finally {
      await t.close();
    }
  });

  describe('with METRICS_TOKEN', () => {
    let w: P2pWorld;
    const scrape = () => w.t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });

    beforeAll(async () => {
      w = await p2pWorld({ config: { metricsToken: TOKEN } });
    });
    afterAll(async () => {
      await w?.t.close();
      await w?.p2p.close();
      await w?.old.close();
    });

    it('refuses a missing or wrong token with 401', async () => {
      for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN]) {
        const res = await w.t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(res.statusCode, String(authorization)).toBe(401);
        expect(res.json().code).toBe('UNAUTHORIZED');
      }
    });

    it('shows request durations by route template, process and pool figures, and the business figures as they move', async () => {
      const before = (await scrape()).body;
      const spendsBefore = sample(before, 'panel_credit_spends_total') ?? 0;
      const activeBefore = sample(before, 'panel_lines_active') ?? 0;

      // a reseller buys a line and a P2P account: two spends, one active line, one change for the P2P server
      const r = await w.reseller('ops_reseller', 'reseller', 10);
      await createLine(w.t, r.token, { username: 'ops_line_1', password: 'ops-line-pass-1', package_id: w.cheap });
      await w.account(r.token);
      // an edge with an unknown key asks
      const edge = await w.t.app.inject({ method: 'GET', url: '/gateway/auth', headers: { 'x-edge-key': 'no-such-key', 'x-original-uri': '/live/a/b/1.m3u8', 'x-real-ip': '198.51.100.7' } });
      expect(edge.statusCode).toBe(401);

      const res = await scrape();
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
      const text = res.body;
      expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/users"[^}]*\} \d+/);
      expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*status_code="201"/);
      expect(text).toContain('process_cpu_user_seconds_total');
      expect(text).toContain('nodejs_eventloop_lag_seconds');
      expect(sample(text, 'panel_db_pool_connections', 'state="total"')).toBeGreaterThan(0);
      expect(sample(text, 'panel_credit_spends_total')).toBe(spendsBefore + 2);
      expect(sample(text, 'panel_lines_active')).toBe(activeBefore + 1);
      expect(sample(text, 'panel_gateway_auth_total', 'result="unknown_edge"')).toBeGreaterThanOrEqual(1);
      // no worker runs in this test: the account's change waits in the outbox
      expect(sample(text, 'panel_outbox_pending')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'panel_webhook_deliveries_pending')).toBe(0);
      expect(sample(text, 'panel_reminders_pending')).toBe(0);
      expect(sample(text, 'panel_payments_awaiting_credits')).toBe(0);
      // the scrape itself and the health routes are not timed; no secret in the figures
      expect(text).not.toMatch(/route="\/metrics"/);
      expect(text).not.toContain(TOKEN);
    });

    it('a refused spend is not counted', async () => {
      const spends = sample((await scrape()).body, 'panel_credit_spends_total') ?? 0;
      const poor = await w.reseller('ops_poor', 'reseller', 0);
      const res = await w.t.call(poor.token, { method: 'POST', url: '/api/p2p/users', payload: { name: 'Sem saldo', username: 'ops_poor_1', package_id: w.cheap } });
      expect(res.json().code).toBe('INSUFFICIENT_CREDITS');
      expect(sample((await scrape()).body, 'panel_credit_spends_total')).toBe(spends);
    });
  });
});
