import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from './helpers.ts';
import { PACKAGE_DEFAULTS } from './fixtures.ts';
import { type FreshDatabase, ServerProcess, freePort, freshDatabase } from './security/server-process.ts';

// The real server process sends webhooks to a receiver that holds the first delivery unanswered;
// the server is killed (SIGKILL) with it in flight and the others queued, and started again: the
// held delivery is sent again once its lease runs out, and every event arrives, in order, each
// Webhook-Id once after the receiver's dedupe. Two server processes on PostgreSQL share one API
// key's per-minute limit.

const ADMIN_PASSWORD = 'Webhook-crash-admin-7391';

describe(`webhooks across a SIGKILL of the panel (${ENGINE})`, () => {
  let db: FreshDatabase;
  let server: ServerProcess;
  let token = '';
  const got: { id: string; lineId: number }[] = [];
  let holding = true;
  const held: http.ServerResponse[] = [];
  let receiver: http.Server;
  let hookUrl = '';

  beforeAll(async () => {
    db = await freshDatabase('panel_webhook_crash');
    receiver = http.createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c) => parts.push(c));
      req.on('end', () => {
        if (holding) {
          held.push(res); // never answered: in flight when the panel dies
          return;
        }
        const body = JSON.parse(Buffer.concat(parts).toString());
        got.push({ id: String(req.headers['webhook-id']), lineId: body.data.id });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    server = new ServerProcess(await freePort(), { DATABASE_URL: db.url, ADMIN_PASSWORD, OUTBOUND_ALLOW_NETWORKS: '127.0.0.1/32', WEBHOOK_LEASE_SECONDS: '2', WEBHOOK_RETRY_BASE_MS: '100', INTEGRATION_TIMEOUT_MS: '1000' });
    await server.start();
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    for (const res of held) res.destroy();
    await new Promise((r) => receiver?.close(r));
    await db?.drop();
  });

  async function api(base: string, method: string, path: string, body?: unknown, auth = token) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  }

  it('delivers every event once, in order, after a SIGKILL with one in flight', { timeout: 90_000 }, async () => {
    token = (await api(server.base, 'POST', '/api/auth/sign-in', { username: 'admin', password: ADMIN_PASSWORD })).json.token;
    const bouquet = (await api(server.base, 'POST', '/api/admin/bouquets', { bouquet_name: 'hooks' })).json.id;
    const pkg = (await api(server.base, 'POST', '/api/admin/packages', { ...PACKAGE_DEFAULTS, package_name: 'hooks', bouquets: [String(bouquet)] })).json.id;
    expect((await api(server.base, 'POST', '/api/webhooks', { url: hookUrl, events: ['line.created'] })).status).toBe(201);
    const lines: number[] = [];
    for (let i = 0; i < 4; i++) lines.push((await api(server.base, 'POST', '/api/users', { package_id: pkg })).json.id);
    for (let i = 0; i < 100 && held.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(held).toHaveLength(1); // the first is in flight, the others wait behind it

    expect((await server.stop('SIGKILL')).signal).toBe('SIGKILL');
    holding = false;
    await server.start();
    for (let i = 0; i < 200 && new Set(got.map((g) => g.id)).size < 4; i++) await new Promise((r) => setTimeout(r, 100));
    const firstSeen = [...new Map(got.map((g) => [g.id, g.lineId])).values()];
    expect(firstSeen).toEqual(lines);
    expect(got).toHaveLength(4);
  });

  it.skipIf(ENGINE !== 'postgres')('two server processes share one API key per-minute limit', { timeout: 90_000 }, async () => {
    expect((await api(server.base, 'PUT', '/api/admin/settings', { api_key_requests_per_minute: '6' })).status).toBe(200);
    const key = (await api(server.base, 'POST', '/api/api-keys', { name: 'two processes', scopes: ['credits:read'] })).json.key;
    const other = new ServerProcess(await freePort(), { DATABASE_URL: db.url, ADMIN_PASSWORD });
    await other.start();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await api(i % 2 ? other.base : server.base, 'GET', '/api/profile', undefined, key)).status);
      // a minute may turn mid-run: then more get through, never more than twice the limit
      const ok = statuses.filter((s) => s === 200).length;
      expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
      expect(ok).toBeGreaterThanOrEqual(6);
      expect(ok === 6 || new Date().getSeconds() < 10).toBe(true);
    } finally {
      await other.stop('SIGKILL');
    }
  });
});
