import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/connection.ts';
import { nowSec } from '../src/lib/clock.ts';
import { PACKAGE_DEFAULTS, addMonthsUtc } from './fixtures.ts';
import { ENGINE } from './helpers.ts';
import { type FreshDatabase, ServerProcess, freePort, freshDatabase } from './security/server-process.ts';
import { schedulerRounds } from './wait.ts';

// A PIX renewal (docs/payments.md) from the real server process: the server is killed (SIGKILL)
// after Mercado Pago's notification came in, while its GET of the payment is held unanswered, so
// before the renewal. Started again, Mercado Pago's retried notification and the poller both meet
// the approved payment: it is renewed exactly once, one ledger row and one credit, whatever comes next.

const ADMIN_PASSWORD = 'Pix-crash-admin-5931';
const RESELLER_PASSWORD = 'Kq7.vX2p_Rz9@tLm';
const LINE_PASSWORD = 'pix_line_pw_7734';
const TOKEN = 'APP_USR-restart-stand-in-0001';
const SECRET = 'mp-webhook-secret-restart-0456';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface MpPayment {
  id: number;
  status: string;
  external_reference: string;
  transaction_amount: number;
  currency_id: string;
  notification_url: string;
}

/** Mercado Pago's payments API on a socket (as test/standins/mercadopago.ts), plus `holdGets`: GET /v1/payments/{id} left unanswered. */
async function startMercadoPago(token: string) {
  const payments = new Map<number, MpPayment>();
  const byKey = new Map<string, number>();
  /** every GET of a payment received, by payment id (held or answered) */
  const gets = new Map<number, number>();
  const held: http.ServerResponse[] = [];
  let nextId = 92_000_000_001;
  const state = { holdGets: false };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${token}`) return json(401, { message: 'invalid access token' });
      if (req.method === 'POST' && req.url === '/v1/payments') {
        const key = String(req.headers['x-idempotency-key'] ?? '');
        const body = JSON.parse(Buffer.concat(chunks).toString()) as Omit<MpPayment, 'id' | 'status' | 'currency_id'> & { payment_method_id: string };
        if (body.payment_method_id !== 'pix' || !key) return json(400, { message: 'bad request' });
        let id = byKey.get(key);
        if (id === undefined) {
          id = nextId++;
          byKey.set(key, id);
          payments.set(id, { id, status: 'pending', external_reference: body.external_reference, transaction_amount: body.transaction_amount, currency_id: 'BRL', notification_url: body.notification_url });
        }
        return json(201, { ...payments.get(id)!, point_of_interaction: { transaction_data: { qr_code: `00020126PIX${id}`, qr_code_base64: 'iVBORw0KGgo=', ticket_url: `https://mp.example/pix/${id}` } } });
      }
      const m = /^\/v1\/payments\/(\d+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && m) {
        const id = Number(m[1]);
        gets.set(id, (gets.get(id) ?? 0) + 1);
        if (state.holdGets) return void held.push(res); // never answered: its client dies with it
        const p = payments.get(id);
        return p ? json(200, p) : json(404, { message: 'not found' });
      }
      json(404, { message: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    payments,
    state,
    getsOf: (id: number) => gets.get(id) ?? 0,
    held: () => held.length,
    /** answers GETs from now on; the held ones' clients are gone, their sockets are closed */
    release() {
      state.holdGets = false;
      for (const res of held.splice(0)) res.destroy();
    },
    /** The notification Mercado Pago sends for payment `id`: path of its notification_url with data.id and type, signed with `secret`. */
    notification(id: number, secret: string) {
      const url = new URL(payments.get(id)!.notification_url);
      url.searchParams.set('data.id', String(id));
      url.searchParams.set('type', 'payment');
      const requestId = randomUUID();
      const ts = String(nowSec());
      const v1 = createHmac('sha256', secret).update(`id:${id};request-id:${requestId};ts:${ts};`).digest('hex');
      return { path: `${url.pathname}${url.search}`, headers: { 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId }, body: { action: 'payment.updated', type: 'payment', data: { id: String(id) } } };
    },
    close: () =>
      new Promise<void>((r) => {
        for (const res of held.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe(`PIX renewal across a SIGKILL of the panel (${ENGINE})`, () => {
  let db: FreshDatabase;
  let database: Database | undefined;
  let server: ServerProcess;
  let mp: Awaited<ReturnType<typeof startMercadoPago>>;

  async function api(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${server.base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined, text };
  }
  async function ok(method: string, path: string, body: unknown, token: string, status = 200, headers: Record<string, string> = {}) {
    const res = await api(method, path, body, { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers });
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.json;
  }
  /** Posts Mercado Pago's notification of payment `mpId` to the server, as Mercado Pago would. */
  const notify = (mpId: number) => {
    const n = mp.notification(mpId, SECRET);
    return fetch(`${server.base}${n.path}`, { method: 'POST', headers: { ...n.headers, 'content-type': 'application/json' }, body: JSON.stringify(n.body), signal: AbortSignal.timeout(15_000) });
  };

  async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 50) {
    const deadline = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; server output:\n${server.output.slice(-20).join('\n')}`);
      await sleep(stepMs);
    }
  }

  const paymentRow = (id: number) =>
    database!.db.selectFrom('payments').select(['status', 'mp_payment_id', 'exp_before', 'exp_after', 'checked_at']).where('id', '=', id).executeTakeFirstOrThrow();
  const renewals = async (lineId: number) => (await database!.db.selectFrom('credit_ledger').select('id').where('line_id', '=', lineId).where('reason', '=', 'line_renew').execute()).length;
  const balanceOf = async (id: number) => Number((await database!.db.selectFrom('resellers').select('credits').where('id', '=', id).executeTakeFirstOrThrow()).credits);
  const ledgerSumOf = async (id: number) => Number((await database!.db.selectFrom('credit_ledger').select((eb) => eb.fn.sum<number>('delta').as('s')).where('reseller_id', '=', id).executeTakeFirst())?.s ?? 0);
  const expOf = async (lineId: number) => Number((await database!.db.selectFrom('lines').select('exp_date').where('id', '=', lineId).executeTakeFirstOrThrow()).exp_date);
  const leaseHolder = async () => (await database!.db.selectFrom('scheduler_leases').select('holder').where('name', '=', 'payments').executeTakeFirst())?.holder;

  beforeAll(async () => {
    db = await freshDatabase('panel_pix_crash');
    mp = await startMercadoPago(TOKEN);
    server = new ServerProcess(await freePort(), {
      DATABASE_URL: db.url,
      ADMIN_PASSWORD,
      MERCADOPAGO_API_URL: mp.url,
      PUBLIC_URL: 'http://painel.example',
      PAYMENTS_CHECK_AFTER_SECONDS: '4',
      PAYMENTS_TICK_SECONDS: '1',
      INTEGRATION_TIMEOUT_MS: '1000',
    });
    await server.start();
    database = openDatabase(db.url); // the server has migrated it
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.close();
    await mp?.close();
    await db?.drop();
  });

  it('renews once when the server dies between the notification and the renewal', { timeout: 90_000 }, async () => {
    // a package, a reseller with PIX on, a line, its customer's charge
    const admin = (await ok('POST', '/api/auth/sign-in', { username: 'admin', password: ADMIN_PASSWORD }, '')).token;
    const groups: Record<string, number> = {};
    for (const g of (await ok('GET', '/api/datacomplements', undefined, admin)).groups) groups[g.type] ??= g.group_id;
    const bouquet = (await ok('POST', '/api/admin/bouquets', { bouquet_name: 'pix' }, admin, 201)).id;
    const pkg = (await ok('POST', '/api/admin/packages', { ...PACKAGE_DEFAULTS, package_name: 'pix mensal', bouquets: [String(bouquet)] }, admin, 201)).id;
    const reseller = (await ok('POST', '/api/resellers', { username: 'pix_crash', password: RESELLER_PASSWORD, member_group_id: groups.reseller, credits: 5 }, admin, 201)).id as number;
    const rtoken = (await ok('POST', '/api/auth/sign-in', { username: 'pix_crash', password: RESELLER_PASSWORD }, '')).token;
    const settings = await ok('PUT', '/api/payments/settings', { enabled: true, mercadopago_access_token: TOKEN, mercadopago_webhook_secret: SECRET, prices: [{ package_id: pkg, price_cents: 3500 }] }, rtoken);
    expect(settings).toMatchObject({ enabled: true, notification_url: `http://painel.example/api/payments/mercadopago/webhook?reseller=${reseller}` });
    const line = await ok('POST', '/api/users', { package_id: pkg, password: LINE_PASSWORD }, rtoken, 201);
    const cs = (await ok('POST', '/api/customer/sign-in', { username: line.username, password: LINE_PASSWORD }, '')).token as string;
    const charge = await ok('POST', '/api/customer/payments', { package_id: pkg }, cs, 200, { 'idempotency-key': 'restart-renew-0001' });
    expect(charge).toMatchObject({ status: 'pending', amount_cents: 3500 });
    const mpId = Number((await paymentRow(charge.id)).mp_payment_id);
    expect(mp.payments.get(mpId)).toMatchObject({ external_reference: String(charge.id), transaction_amount: 35 });
    const balance = await balanceOf(reseller); // 5 less the line's credit
    const expBefore = await expOf(line.id);

    // The poller asks about the pending charge (at most once per 4 s): right after it did, the next
    // GET of this payment is the notification's.
    const polled = mp.getsOf(mpId);
    await until("the poller's GET of the pending charge", () => mp.getsOf(mpId) > polled, 20_000, 10);
    mp.state.holdGets = true;
    mp.payments.get(mpId)!.status = 'approved';
    const gets = mp.getsOf(mpId);
    const holder = await leaseHolder();
    expect(holder).toBeTruthy();
    const inFlight = notify(mpId).then(
      (r) => r.status,
      () => 'no answer' as const,
    );
    await until('the notification’s GET of the payment', () => mp.getsOf(mpId) > gets, 3_000, 5);
    expect((await server.stop('SIGKILL')).signal).toBe('SIGKILL');
    expect(await inFlight).toBe('no answer');
    expect(mp.held()).toBe(1);

    // nothing of the renewal happened
    expect((await paymentRow(charge.id)).status).toBe('pending');
    expect(await renewals(line.id)).toBe(0);
    expect(await balanceOf(reseller)).toBe(balance);
    expect(await expOf(line.id)).toBe(expBefore);

    // started again: Mercado Pago retries its notification, and the poller runs
    mp.release();
    await server.start();
    const retried = await notify(mpId);
    expect(retried.status, await retried.text()).toBe(200);
    await until('the payment applied', async () => (await paymentRow(charge.id)).status === 'applied', 15_000);

    // the dead process's `payments` lease runs out (a 1 s tick plus 15 s here) and the new one's poller takes it
    await until('the restarted server’s poller', async () => (await leaseHolder()) !== holder, 45_000, 250);
    await schedulerRounds(database!.db, 'payments', 1); // its round
    for (let i = 0; i < 3; i++) expect((await notify(mpId)).status).toBe(200);
    await schedulerRounds(database!.db, 'payments', 2); // a couple more rounds: nothing more is applied

    const row = await paymentRow(charge.id);
    expect(row.status).toBe('applied');
    expect(await renewals(line.id)).toBe(1);
    expect(await balanceOf(reseller)).toBe(balance - 1);
    expect(await ledgerSumOf(reseller)).toBe(balance - 1);
    const expAfter = await expOf(line.id);
    expect(expAfter).toBe(addMonthsUtc(expBefore, 1)); // one month, once
    expect([Number(row.exp_before), Number(row.exp_after)]).toEqual([expBefore, expAfter]);
    const seen = await ok('GET', `/api/customer/payments/${charge.id}`, undefined, cs);
    expect(seen).toMatchObject({ status: 'applied', exp_after: expAfter });
  });
});
