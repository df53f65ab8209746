import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, nowSec, resetClock } from '../src/lib/clock.ts';
import { expiryTick } from '../src/modules/webhooks/expiry.ts';
import * as hooksRepo from '../src/modules/webhooks/repo.ts';
import { type WebhookWorker, startWebhookWorker } from '../src/modules/webhooks/worker.ts';
import { adminWithPackage, createLine, createSignedInReseller } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { waitFor } from './wait.ts';

// Outbound webhooks (docs/api.md, "Webhooks") against a receiver on a real socket: signed, in order
// per endpoint, once per event id, through a receiver outage and a worker restart.

const PASS = 'Kq7.vX2p_Rz9@tLm';

interface Received {
  id: string;
  type: string;
  body: Record<string, unknown>;
  signed: boolean;
}

/** A receiver that checks each delivery's signature with `secret` and can be made to fail. */
async function receiver() {
  const got: Received[] = [];
  let failing = false;
  let secret = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (failing) return res.writeHead(500).end('down for maintenance');
      const raw = Buffer.concat(chunks).toString();
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers['webhook-signature']));
      const expected = m ? createHmac('sha256', secret).update(`${m[1]}.${raw}`).digest('hex') : '';
      const body = JSON.parse(raw) as Record<string, unknown>;
      got.push({ id: String(req.headers['webhook-id']), type: String(body.type), body, signed: m !== null && m[2] === expected && body.id === req.headers['webhook-id'] });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    setSecret: (s: string) => {
      secret = s;
    },
    fail: (on: boolean) => {
      failing = on;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The endpoint's deliveries not yet delivered: none means the worker has recorded every send. */
const undelivered = (t: TestContext, endpointId: number) =>
  t.database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId).where('state', '!=', 'delivered').execute();

describe(`webhooks (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let reseller: { id: number; token: string };
  let hook: Awaited<ReturnType<typeof receiver>>;
  let endpointId: number;
  let worker: WebhookWorker | undefined;
  const start = () => startWebhookWorker(t.deps, { pollMs: 50, retryBaseMs: 100, log: () => {} });

  beforeAll(async () => {
    t = await createTestContext({ outboundAllowNetworks: ['127.0.0.1/32'] });
    let groups: Record<string, number>;
    ({ admin, groups, pkg } = await adminWithPackage(t));
    reseller = await createSignedInReseller(t, admin, { username: 'hook_res', password: PASS, type: 'reseller', credits: 10, groups });
    hook = await receiver();
  });
  afterAll(async () => {
    await worker?.stop();
    await hook?.close();
    await t?.close();
    resetClock();
  });

  it('creates an endpoint with its secret shown once; refuses plain http to the internet and bad input', async () => {
    const bad = async (payload: Record<string, unknown>) => (await t.call(reseller.token, { method: 'POST', url: '/api/webhooks', payload: { url: hook.url, events: ['line.created'], ...payload } })).json();
    expect((await bad({ url: 'http://example.com/hook' })).field).toBe('url');
    expect((await bad({ url: 'ftp://example.com/hook' })).field).toBe('url');
    expect((await bad({ events: ['line.deleted'] })).code).toBe('VALIDATION');
    expect((await bad({ events: ['credits.low'] })).field).toBe('credits_low_threshold');
    const res = await t.call(reseller.token, {
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: hook.url, events: ['line.created', 'line.renewed', 'line.blocked', 'credits.low'], credits_low_threshold: 9 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json();
    expect(made.secret).toMatch(/^whsec_[\w-]{32}$/);
    endpointId = made.id;
    hook.setSecret(made.secret);
    const listed = (await t.call(reseller.token, { method: 'GET', url: '/api/webhooks' })).json().data;
    expect(listed).toEqual([expect.objectContaining({ id: endpointId, url: hook.url, include_credentials: false, credits_low_threshold: 9 })]);
    expect(JSON.stringify(listed)).not.toContain(made.secret);
    const stored = await t.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(made.secret.slice(6));
    // another account neither sees nor removes it; an API key cannot manage webhooks
    const other = await createSignedInReseller(t, admin, { username: 'hook_other', password: PASS, type: 'reseller', credits: 0, groups: (await adminWithPackage(t, 'Other')).groups });
    expect((await t.call(other.token, { method: 'GET', url: '/api/webhooks' })).json().data).toEqual([]);
    expect((await t.call(other.token, { method: 'DELETE', url: `/api/webhooks/${endpointId}` })).statusCode).toBe(404);
    const key = (await t.call(reseller.token, { method: 'POST', url: '/api/api-keys', payload: { name: 'bot', scopes: ['lines:read', 'lines:write', 'credits:read'] } })).json().key;
    expect((await t.call(key, { method: 'GET', url: '/api/webhooks' })).json().code).toBe('SCOPE_REQUIRED');
  });

  it('sends line.created, credits.low, line.renewed and line.blocked signed, in order, without the password', async () => {
    worker = start();
    const line = await createLine(t, reseller.token, { package_id: pkg }); // 10 -> 9: not under 9
    const renewed = await t.call(reseller.token, { method: 'POST', url: `/api/users/${line.id}/renew`, payload: { package_id: pkg } }); // 9 -> 8
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect((await t.call(reseller.token, { method: 'POST', url: `/api/users/${line.id}/block` })).statusCode).toBe(200);
    await waitFor(() => hook.got.length >= 4);
    expect(hook.got.map((g) => g.type)).toEqual(['line.created', 'credits.low', 'line.renewed', 'line.blocked']);
    expect(hook.got.every((g) => g.signed)).toBe(true);
    expect(new Set(hook.got.map((g) => g.id)).size).toBe(4);
    const created = hook.got[0].body.data as Record<string, unknown>;
    expect(created).toMatchObject({ id: line.id, username: line.username });
    expect(created).not.toHaveProperty('password');
    expect(JSON.stringify(hook.got)).not.toContain(line.password);
    expect(hook.got[1].body.data).toEqual({ reseller_id: reseller.id, balance: 8, threshold: 9 });
    expect(hook.got[3].body.data).toMatchObject({ id: line.id, enabled: 0 });
    // a change that fails sends nothing
    await t.database.db.updateTable('resellers').set({ credits: 0 }).where('id', '=', reseller.id).execute();
    expect((await t.call(reseller.token, { method: 'POST', url: '/api/users', payload: { package_id: pkg } })).statusCode).toBe(409);
    await t.database.db.updateTable('resellers').set({ credits: 10 }).where('id', '=', reseller.id).execute();
    // events are written in their change's transaction: the refused one queued none, and the four
    // are recorded delivered, so nothing is left for the worker to send
    const queued = await t.database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId).execute();
    expect(queued).toHaveLength(4);
    await waitFor(async () => (await undelivered(t, endpointId)).length === 0, { what: 'the four deliveries recorded' });
    expect(hook.got).toHaveLength(4);
  });

  it('through a receiver outage: retried, then every event delivered once and in order', async () => {
    hook.got.length = 0;
    // far over the credits.low threshold: only line events here
    await t.database.db.updateTable('resellers').set({ credits: 100 }).where('id', '=', reseller.id).execute();
    hook.fail(true);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createLine(t, reseller.token, { package_id: pkg }));
    // the first is retried with its answer recorded; the others wait behind it
    await waitFor(async () => {
      const d = (await t.call(reseller.token, { method: 'GET', url: `/api/webhooks/${endpointId}/deliveries` })).json().data;
      return d.some((x: { attempts: number; last_status: number | null }) => x.attempts >= 2 && x.last_status === 500);
    });
    const during = (await t.call(reseller.token, { method: 'GET', url: `/api/webhooks/${endpointId}/deliveries` })).json().data;
    expect(during.filter((d: { state: string }) => d.state === 'pending')).toHaveLength(3);
    expect(during.find((d: { attempts: number }) => d.attempts > 0).last_answer).toContain('500');
    hook.fail(false);
    await waitFor(() => hook.got.length >= 3);
    // every delivery recorded delivered: no send is left that could come twice
    await waitFor(async () => (await undelivered(t, endpointId)).length === 0, { what: 'the deliveries recorded' });
    expect(hook.got.map((g) => (g.body.data as { id: number }).id)).toEqual(made.map((l) => l.id));
    expect(new Set(hook.got.map((g) => g.id)).size).toBe(3);
  });

  it('across a restart and with two workers: nothing lost, nothing sent twice', async () => {
    await worker?.stop();
    hook.got.length = 0;
    const line = await createLine(t, reseller.token, { package_id: pkg });
    // queued, and with no worker running nothing sends it
    expect((await undelivered(t, endpointId)).length).toBe(1);
    expect(hook.got).toHaveLength(0);
    // two processes' workers on one database: leases share the work
    worker = start();
    const second = start();
    try {
      for (let i = 0; i < 4; i++) await createLine(t, reseller.token, { package_id: pkg });
      await waitFor(() => hook.got.length >= 5);
      await waitFor(async () => (await undelivered(t, endpointId)).length === 0, { what: 'the five deliveries recorded' });
      expect(hook.got).toHaveLength(5);
      expect((hook.got[0].body.data as { id: number }).id).toBe(line.id);
      expect(new Set(hook.got.map((g) => g.id)).size).toBe(5);
    } finally {
      await second.stop();
    }
  });

  it('lists deliveries, resends one with its Webhook-Id, sends a test event; a removed endpoint gets nothing more', async () => {
    hook.got.length = 0;
    const test = await t.call(reseller.token, { method: 'POST', url: `/api/webhooks/${endpointId}/test` });
    expect(test.statusCode, test.body).toBe(201);
    await waitFor(() => hook.got.length >= 1);
    expect(hook.got[0]).toMatchObject({ type: 'webhook.test', signed: true, id: test.json().event_id });
    // the receiver has it; the worker records the answer right after
    const deliveries = async () => (await t.call(reseller.token, { method: 'GET', url: `/api/webhooks/${endpointId}/deliveries` })).json().data;
    await waitFor(async () => (await deliveries())[0].state === 'delivered');
    const list = await deliveries();
    expect(list[0]).toMatchObject({ type: 'webhook.test', state: 'delivered', last_status: 204, attempts: 1 });
    expect(list.length).toBeLessThanOrEqual(50);
    const again = await t.call(reseller.token, { method: 'POST', url: `/api/webhooks/${endpointId}/deliveries/${list[0].id}/resend` });
    expect(again.statusCode, again.body).toBe(201);
    await waitFor(() => hook.got.length >= 2);
    expect(hook.got[1].id).toBe(hook.got[0].id);

    hook.fail(true);
    await createLine(t, reseller.token, { package_id: pkg });
    // its first attempt fails and is recorded: what is left is the retry the removal must cancel
    await waitFor(async () => (await deliveries()).some((d: { type: string; attempts: number }) => d.type === 'line.created' && d.attempts >= 1));
    // No send in flight at the removal: stopping the worker waits for its round, so a retry it had
    // already leased has met the failing receiver and is recorded. (A send in flight during a
    // removal records nothing: the last test.) A sleep here instead raced a send slowed by load.
    await worker?.stop();
    expect((await t.call(reseller.token, { method: 'DELETE', url: `/api/webhooks/${endpointId}` })).statusCode).toBe(204);
    hook.fail(false);
    // past the next retry's time (backoff 100 or 200 ms, due at the next whole second)
    advanceClock(2_000);
    worker = start();
    // Proof that the worker has had its rounds past that time: a test event to another endpoint,
    // sent and recorded, then a second one queued only after that. Rounds run one after another,
    // so the second's arrival means the round that saw the retry due has finished all its sends.
    const marker = (await t.call(reseller.token, { method: 'POST', url: '/api/webhooks', payload: { url: hook.url, events: ['line.renewed'] } })).json().id as number;
    const markers: string[] = [];
    for (let i = 1; i <= 2; i++) {
      markers.push((await t.call(reseller.token, { method: 'POST', url: `/api/webhooks/${marker}/test` })).json().event_id);
      await waitFor(async () => (await undelivered(t, marker)).length === 0, { what: `marker event ${i} recorded` });
    }
    expect((await t.call(reseller.token, { method: 'DELETE', url: `/api/webhooks/${marker}` })).statusCode).toBe(204);
    // nothing came from the removed endpoint: the test event and its resend, then the two markers
    expect(hook.got.map((g) => g.id)).toEqual([hook.got[0].id, hook.got[0].id, ...markers]);
    const states = await t.database.db.selectFrom('webhook_deliveries').select('state').where('endpoint_id', '=', endpointId).where('state', '=', 'pending').execute();
    expect(states).toEqual([]);
  });

  it('an endpoint created with include_credentials gets the line password', async () => {
    hook.fail(false);
    hook.got.length = 0;
    const res = await t.call(reseller.token, { method: 'POST', url: '/api/webhooks', payload: { url: hook.url, events: ['line.created'], include_credentials: true } });
    hook.setSecret(res.json().secret);
    const line = await createLine(t, reseller.token, { package_id: pkg });
    await waitFor(() => hook.got.length >= 1);
    expect(hook.got[0].body.data).toMatchObject({ id: line.id, password: line.password });
    expect(hook.got[0].signed).toBe(true);
  });

  it('line.expiring and line.expired: once per line and expiry, never for blocked lines, afresh after a renewal', async () => {
    await worker?.stop();
    worker = undefined;
    const res = await t.call(reseller.token, { method: 'POST', url: '/api/webhooks', payload: { url: hook.url, events: ['line.expiring', 'line.expired'] } });
    const id = res.json().id as number;
    const now = nowSec();
    const day = 86_400;
    const at = async (exp: number) => {
      const line = await createLine(t, reseller.token, { package_id: pkg });
      await t.database.db.updateTable('lines').set({ exp_date: exp }).where('id', '=', line.id).execute();
      return line.id as number;
    };
    const soon = await at(now + 2 * day);
    const gone = await at(now - day);
    await at(now + 10 * day); // not yet
    await at(now - 30 * day); // long gone: not news
    const blocked = await at(now + day);
    expect((await t.call(reseller.token, { method: 'POST', url: `/api/users/${blocked}/block` })).statusCode).toBe(200);
    const events = async () =>
      (await t.database.db.selectFrom('webhook_deliveries').select(['type', 'body']).where('endpoint_id', '=', id).orderBy('id').execute()).map((d) => `${d.type} ${JSON.parse(d.body).data.id}`);
    // two schedulers at once (two processes): each event once
    await Promise.all([expiryTick(t.deps, now), expiryTick(t.deps, now)]);
    expect((await events()).sort()).toEqual([`line.expired ${gone}`, `line.expiring ${soon}`].sort());
    expect(await expiryTick(t.deps, now + 60)).toBe(0);
    // renewed, and later close to its new expiry: told again
    expect((await t.call(reseller.token, { method: 'POST', url: `/api/users/${soon}/renew`, payload: { package_id: pkg } })).statusCode).toBe(200);
    expect(await expiryTick(t.deps, now + 120)).toBe(0);
    const renewedExp = Number((await t.database.db.selectFrom('lines').select('exp_date').where('id', '=', soon).executeTakeFirstOrThrow()).exp_date);
    expect(await expiryTick(t.deps, renewedExp - day)).toBeGreaterThanOrEqual(1);
    expect((await events()).filter((e) => e === `line.expiring ${soon}`)).toHaveLength(2);
  });

  it("only the lease's holder records an outcome, and only while the delivery is pending", async () => {
    await worker?.stop();
    worker = undefined;
    const res = await t.call(reseller.token, { method: 'POST', url: '/api/webhooks', payload: { url: hook.url, events: ['line.created'] } });
    const id = res.json().id as number;
    const queued = (await t.call(reseller.token, { method: 'POST', url: `/api/webhooks/${id}/test` })).json();
    const now = nowSec();
    const db = t.database.db;
    expect(await hooksRepo.lease(db, queued.id, now, 60, 'worker-a')).toBe(true);
    expect(await hooksRepo.lease(db, queued.id, now, 60, 'worker-b')).toBe(false);
    // a worker whose lease ran out (another took it) changes nothing
    await hooksRepo.recordFailed(db, queued.id, 'worker-b', now, 500, 'stale', now + 10);
    await hooksRepo.recordDelivered(db, queued.id, 'worker-b', now, 200);
    const state = async () => (await db.selectFrom('webhook_deliveries').select(['state', 'attempts']).where('id', '=', queued.id).executeTakeFirstOrThrow());
    expect(await state()).toEqual({ state: 'pending', attempts: 0 });
    // nor does any worker once the endpoint is removed (its deliveries cancelled)
    expect((await t.call(reseller.token, { method: 'DELETE', url: `/api/webhooks/${id}` })).statusCode).toBe(204);
    await hooksRepo.recordFailed(db, queued.id, 'worker-a', now, 500, 'late', now + 10);
    expect(await state()).toEqual({ state: 'cancelled', attempts: 0 });
  });
});
