import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { applyAwaiting } from '../src/modules/payments/apply.ts';
import { checkPending } from '../src/modules/payments/notifications.ts';
import { renewalToken } from '../src/modules/reminders/renewal-link.ts';
import { adminWithPackage, balanceOf, createLine, createSignedInReseller, ledgerSumOf, mint } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { type Notification, startMercadoPago } from './standins/mercadopago.ts';

// Customers renew themselves by PIX (docs/payments.md) against a Mercado Pago stand-in on a socket:
// one renewal and one charge per payment whatever the notifications (duplicate, concurrent, out of
// order, forged, stale); a reseller short of credits waits and is applied once credited; the poller
// finds a payment whose notification was lost; a customer session opens no panel route.

const PASS = 'Kq7.vX2p_Rz9@tLm';
const TOKEN = 'APP_USR-1234567890-stand-in';
const SECRET = 'mp-webhook-secret-0123';

describe(`PIX payments (${ENGINE})`, () => {
  let t: TestContext;
  let mp: Awaited<ReturnType<typeof startMercadoPago>>;
  let admin: string;
  let pkg: number;
  let groups: Record<string, number>;
  let reseller: { id: number; token: string };

  const deliver = (n: Notification) => t.app.inject({ method: 'POST', url: n.path, headers: { ...n.headers, 'content-type': 'application/json' }, payload: n.body });
  const customerCall = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown, key?: string) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) }, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function customerOf(line: { username: string; password: string }) {
    const res = await t.app.inject({ method: 'POST', url: '/api/customer/sign-in', payload: { username: line.username, password: line.password } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  }
  async function pay(token: string, key: string) {
    const res = await customerCall(token, 'POST', '/api/customer/payments', { package_id: pkg }, key);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: number; status: string; qr_code: string; amount_cents: number };
  }
  /** A reseller with PIX on at R$ 20,00 and one credit, spent on a line: its customer's payment will wait. */
  async function pixResellerOnItsLastCredit(username: string) {
    const poor = await createSignedInReseller(t, admin, { username, password: PASS, type: 'reseller', credits: 1, groups });
    await t.call(poor.token, { method: 'PUT', url: '/api/payments/settings', payload: { enabled: true, mercadopago_access_token: TOKEN, mercadopago_webhook_secret: SECRET, prices: [{ package_id: pkg, price_cents: 2000 }] } });
    const line = await createLine(t, poor.token, { package_id: pkg }); // its last credit
    return { poor, line };
  }
  /** The line's customer pays; Mercado Pago approves and notifies once. */
  async function paidByCustomer(line: { username: string; password: string }, key: string) {
    const charge = await pay(await customerOf(line), key);
    const mpId = await mpIdOf(charge.id);
    mp.set(mpId, { status: 'approved' });
    await deliver(mp.notification(mpId, SECRET));
    return { charge, mpId };
  }
  const mpIdOf = async (paymentId: number) => Number((await t.database.db.selectFrom('payments').select('mp_payment_id').where('id', '=', paymentId).executeTakeFirstOrThrow()).mp_payment_id);
  const statusOf = async (paymentId: number) => (await t.database.db.selectFrom('payments').select('status').where('id', '=', paymentId).executeTakeFirstOrThrow()).status;
  const expOf = async (lineId: number) => Number((await t.database.db.selectFrom('lines').select('exp_date').where('id', '=', lineId).executeTakeFirstOrThrow()).exp_date);
  const renewals = async (lineId: number) => (await t.database.db.selectFrom('credit_ledger').select('id').where('line_id', '=', lineId).where('reason', '=', 'line_renew').execute()).length;

  beforeAll(async () => {
    mp = await startMercadoPago(TOKEN);
    t = await createTestContext({ mercadopagoApiUrl: mp.url, publicUrl: 'https://painel.example', paymentsCheckAfterSeconds: 300 });
    ({ admin, groups, pkg } = await adminWithPackage(t));
    reseller = await createSignedInReseller(t, admin, { username: 'pix_res', password: PASS, type: 'reseller', credits: 20, groups });
    const set = await t.call(reseller.token, { method: 'PUT', url: '/api/payments/settings', payload: { enabled: true, mercadopago_access_token: TOKEN, mercadopago_webhook_secret: SECRET, prices: [{ package_id: pkg, price_cents: 3500 }] } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.body).not.toContain(TOKEN);
    expect(set.body).not.toContain(SECRET);
    expect(set.json()).toMatchObject({ enabled: true, mercadopago_access_token_set: true, mercadopago_webhook_secret_set: true, prices: [{ package_id: pkg, price_cents: 3500 }], notification_url: `https://painel.example/api/payments/mercadopago/webhook?reseller=${reseller.id}` });
  });
  afterAll(async () => {
    await t?.close();
    await mp?.close();
  });

  it('a customer signs in with the line, sees its offers, and gets one PIX charge per Idempotency-Key', async () => {
    const line = await createLine(t, reseller.token, { package_id: pkg, email: 'cliente@example.com' });
    const wrong = await t.app.inject({ method: 'POST', url: '/api/customer/sign-in', payload: { username: line.username, password: 'wrong-one' } });
    expect(wrong.statusCode).toBe(401);
    const token = await customerOf(line);
    const view = await customerCall(token, 'GET', '/api/customer/line');
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({ username: line.username, package_id: pkg, payments_enabled: true, offers: [{ package_id: pkg, price_cents: 3500 }] });
    expect(view.json().reseller).toEqual({ whatsapp: null }); // a contact, never the reseller's username
    expect(view.json().playlist_url).toContain(`username=${line.username}`);

    const creates = mp.creates();
    const first = await pay(token, 'renew-key-0001');
    expect(first).toMatchObject({ status: 'pending', amount_cents: 3500 });
    expect(first.qr_code).toMatch(/^00020126PIX/);
    const again = await pay(token, 'renew-key-0001');
    expect(again.id).toBe(first.id);
    expect(mp.creates()).toBe(creates + 1);
    const mpPayment = mp.payments.get(await mpIdOf(first.id))!;
    expect(mpPayment).toMatchObject({ external_reference: String(first.id), transaction_amount: 35 });
    expect(mpPayment.notification_url).toBe(`https://painel.example/api/payments/mercadopago/webhook?reseller=${reseller.id}`);
    // without an Idempotency-Key: refused
    expect((await customerCall(token, 'POST', '/api/customer/payments', { package_id: pkg })).statusCode).toBe(400);
  });

  it('renews once however the notifications come; forged and stale ones change nothing', async () => {
    const line = await createLine(t, reseller.token, { package_id: pkg });
    const token = await customerOf(line);
    const charge = await pay(token, 'renew-key-0002');
    const mpId = await mpIdOf(charge.id);
    const expBefore = await expOf(line.id);
    const balance = await balanceOf(t.database.db, reseller.id);

    // still pending at Mercado Pago: a valid notification does nothing
    expect((await deliver(mp.notification(mpId, SECRET))).statusCode).toBe(200);
    expect(await statusOf(charge.id)).toBe('pending');

    mp.set(mpId, { status: 'approved' });
    const forged = await deliver(mp.notification(mpId, SECRET, { forge: true }));
    expect(forged.statusCode).toBe(401);
    const stale = await deliver(mp.notification(mpId, SECRET, { ts: nowSec() - 3600 }));
    expect(stale.statusCode).toBe(401);
    expect(await statusOf(charge.id)).toBe('pending');
    expect(await expOf(line.id)).toBe(expBefore);

    // five at once, then two more
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(mp.notification(mpId, SECRET))));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    await deliver(mp.notification(mpId, SECRET));
    await deliver(mp.notification(mpId, SECRET));
    expect(await statusOf(charge.id)).toBe('applied');
    expect(await renewals(line.id)).toBe(1);
    expect(await balanceOf(t.database.db, reseller.id)).toBe(balance - 1);
    expect(await ledgerSumOf(t.database.db, reseller.id)).toBe(balance - 1);
    expect(await expOf(line.id)).toBeGreaterThan(expBefore + 27 * 86_400);

    // the customer's page follows it
    const seen = await customerCall(token, 'GET', `/api/customer/payments/${charge.id}`);
    expect(seen.json()).toMatchObject({ status: 'applied', exp_after: await expOf(line.id) });
  });

  it('two payments notified out of order each renew once; a wrong amount renews nothing', async () => {
    const line = await createLine(t, reseller.token, { package_id: pkg });
    const token = await customerOf(line);
    const a = await pay(token, 'renew-key-000a');
    const b = await pay(token, 'renew-key-000b');
    const [ma, mb] = [await mpIdOf(a.id), await mpIdOf(b.id)];
    mp.set(ma, { status: 'approved' });
    mp.set(mb, { status: 'approved' });
    await deliver(mp.notification(mb, SECRET));
    await deliver(mp.notification(ma, SECRET));
    await deliver(mp.notification(mb, SECRET));
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['applied', 'applied']);
    expect(await renewals(line.id)).toBe(2);

    const c = await pay(token, 'renew-key-000c');
    const mc = await mpIdOf(c.id);
    mp.set(mc, { status: 'approved', transaction_amount: 1 });
    await deliver(mp.notification(mc, SECRET));
    expect(await statusOf(c.id)).toBe('pending');
    expect(await renewals(line.id)).toBe(2);
  });

  it('a reseller short of credits: the payment waits, and applies once when credited', async () => {
    const { poor, line } = await pixResellerOnItsLastCredit('pix_poor');
    const { charge, mpId } = await paidByCustomer(line, 'renew-key-poor1');
    expect(await statusOf(charge.id)).toBe('paid_awaiting_credits');
    expect(await renewals(line.id)).toBe(0);
    const summary = await t.call(poor.token, { method: 'GET', url: '/api/payments/summary' });
    expect(summary.json()).toMatchObject({ awaiting_credits: 1, today: { count: 1, cents: 2000 } });
    await deliver(mp.notification(mpId, SECRET)); // again: still waiting, nothing twice
    expect(await applyAwaiting(t.deps)).toBe(0);

    // the gift itself applies it: no worker runs here, and no call to applyAwaiting
    await mint(t, admin, poor.id, 3);
    await expect.poll(() => statusOf(charge.id), { timeout: 5000 }).toBe('applied');
    expect(await applyAwaiting(t.deps)).toBe(0);
    expect(await renewals(line.id)).toBe(1);
    expect(await balanceOf(t.database.db, poor.id)).toBe(2);
    expect(await ledgerSumOf(t.database.db, poor.id)).toBe(2);
  });

  it('credits a deactivation hands over apply the waiting payments at once', async () => {
    const { poor, line } = await pixResellerOnItsLastCredit('pix_heir');
    const { charge } = await paidByCustomer(line, 'renew-key-heir1');
    expect(await statusOf(charge.id)).toBe('paid_awaiting_credits');

    const leaving = await createSignedInReseller(t, admin, { username: 'pix_leaving', password: PASS, type: 'reseller', credits: 4, groups });
    const moved = await t.call(admin, { method: 'DELETE', url: `/api/resellers/${leaving.id}`, payload: { reseller_id: leaving.id, type: 'transferall', target_id: poor.id } });
    expect(moved.statusCode, moved.body).toBe(200);
    await expect.poll(() => statusOf(charge.id), { timeout: 5000 }).toBe('applied');
    expect(await renewals(line.id)).toBe(1);
    expect(await balanceOf(t.database.db, poor.id)).toBe(3);
    expect(await ledgerSumOf(t.database.db, poor.id)).toBe(3);
  });

  it('the poller applies a payment whose notification was lost, and expires charges nobody paid', async () => {
    const line = await createLine(t, reseller.token, { package_id: pkg });
    const token = await customerOf(line);
    const paid = await pay(token, 'renew-key-lost1');
    const unpaid = await pay(token, 'renew-key-lost2');
    mp.set(await mpIdOf(paid.id), { status: 'approved' });
    const now = nowSec();
    await checkPending(t.deps, now + 60); // too young to ask about
    expect(await statusOf(paid.id)).toBe('pending');
    await checkPending(t.deps, now + 400);
    expect(await statusOf(paid.id)).toBe('applied');
    expect(await renewals(line.id)).toBe(1);
    await checkPending(t.deps, now + 30 * 60 + 700);
    expect(await statusOf(unpaid.id)).toBe('expired');
    const list = await t.call(reseller.token, { method: 'GET', url: '/api/payments?status=expired' });
    expect(list.json().data.map((p: { id: number }) => p.id)).toContain(unpaid.id);
  });

  it('the payments list exports as CSV and XLSX with its filters, only the account\'s own', async () => {
    const line = await createLine(t, reseller.token, { package_id: pkg });
    const { charge, mpId } = await paidByCustomer(line, 'renew-key-export1');
    expect(await statusOf(charge.id)).toBe('applied');

    const csv = await t.call(reseller.token, { method: 'GET', url: '/api/payments/export.csv?status=applied&tz_offset=-180' });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/filename="payments-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = csv.body.slice(1).trim().split('\r\n').map((r) => r.split(';'));
    expect(rows[0].slice(0, 5)).toEqual(['ID', 'Usuário', 'Pacote', 'Valor (R$)', 'Status']);
    expect(rows[0][5]).toBe('Criado em (UTC-03:00)');
    const mine = rows.find((r) => r[0] === String(charge.id));
    expect(mine?.slice(1, 5)).toEqual([line.username, expect.any(String), '35,00', 'Renovado']);
    expect(mine?.[9]).toBe(String(mpId));
    // the filter holds, and the list and the file agree
    const listed = (await t.call(reseller.token, { method: 'GET', url: '/api/payments?status=applied&per=100' })).json();
    expect(rows.length - 1).toBe(listed.meta.total);
    expect(rows.slice(1).every((r) => r[4] === 'Renovado')).toBe(true);
    // another account's export has none of these
    const poor = await t.call((await createSignedInReseller(t, admin, { username: 'pix_other', password: PASS, type: 'reseller', credits: 1, groups })).token, { method: 'GET', url: '/api/payments/export.csv' });
    expect(poor.body.slice(1).trim().split('\r\n')).toHaveLength(1);

    const xlsx = await t.call(reseller.token, { method: 'GET', url: `/api/payments/export.xlsx?line=${line.username}&lang=en-US` });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(1).getCell(4).value).toBe('Amount (BRL)');
    expect([sheet.getRow(2).getCell(1).value, sheet.getRow(2).getCell(4).value, sheet.getRow(2).getCell(5).value]).toEqual([charge.id, 35, 'Renewed']);
    expect(sheet.getRow(2).getCell(6).value).toBeInstanceOf(Date);

    // a browser download goes through a one-time link; a bad filter is a 400
    const link = await t.call(reseller.token, { method: 'POST', url: '/api/exports/token', payload: { path: '/api/payments/export.csv?status=applied' } });
    expect(link.statusCode, link.body).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: link.json().url })).statusCode).toBe(200);
    expect((await t.call(reseller.token, { method: 'GET', url: '/api/payments/export.csv?status=paid' })).statusCode).toBe(400);
  });

  it('a customer session opens only its own line; a reminder link opens one line; panel sessions are not customers', async () => {
    const line = await createLine(t, reseller.token, { package_id: pkg });
    const other = await createLine(t, reseller.token, { package_id: pkg });
    const token = await customerOf(line);
    for (const url of ['/api/users', '/api/profile', '/api/payments', '/api/payments/export.csv', '/api/reminders/settings', `/api/users/${line.id}`]) {
      expect((await customerCall(token, 'GET', url)).statusCode, url).toBe(401);
    }
    const theirs = await pay(await customerOf(other), 'renew-key-other');
    expect((await customerCall(token, 'GET', `/api/customer/payments/${theirs.id}`)).statusCode).toBe(404);
    expect((await customerCall(reseller.token, 'GET', '/api/customer/line')).statusCode).toBe(401);

    const link = await renewalToken(t.deps, line.id, nowSec());
    const opened = await t.app.inject({ method: 'POST', url: '/api/customer/sign-in', payload: { link } });
    expect(opened.statusCode, opened.body).toBe(200);
    expect((await customerCall(opened.json().token, 'GET', '/api/customer/line')).json().username).toBe(line.username);
    const tampered = await t.app.inject({ method: 'POST', url: '/api/customer/sign-in', payload: { link: link.replace(/^\d+/, String(other.id)) } });
    expect(tampered.statusCode).toBe(401);
  });

  it('a charge Mercado Pago does not make is failed, and the same key retries that row into one charge', async () => {
    const line = await createLine(t, reseller.token, { package_id: pkg });
    const token = await customerOf(line);
    const rows = async () => (await t.database.db.selectFrom('payments').select(['id', 'status', 'last_error', 'mp_payment_id']).where('line_id', '=', line.id).execute()).map((r) => ({ ...r, id: Number(r.id) }));
    const listed = async (status: string) => (await t.call(reseller.token, { method: 'GET', url: `/api/payments?status=${status}&line=${line.username}` })).json().data as { id: number; status: string; last_error: string | null }[];

    mp.failCreates(500);
    try {
      for (let i = 0; i < 2; i++) {
        const refused = await customerCall(token, 'POST', '/api/customer/payments', { package_id: pkg }, 'renew-key-fail1');
        expect(refused.statusCode, refused.body).toBe(502);
        expect(refused.json().code).toBe('UPSTREAM_ERROR');
      }
    } finally {
      mp.failCreates();
    }
    // one row, failed (not pending), and the reseller's list says so with why
    const [row] = await rows();
    expect(await rows()).toHaveLength(1);
    expect(row).toMatchObject({ status: 'failed', mp_payment_id: null });
    expect(row?.last_error).toContain('Mercado Pago');
    expect((await listed('failed')).map((p) => p.id)).toEqual([row?.id]);
    expect(await listed('pending')).toEqual([]);

    // the same key once Mercado Pago answers: the same row, one charge there, pending and payable
    const retried = await pay(token, 'renew-key-fail1');
    expect(retried).toMatchObject({ id: row?.id, status: 'pending' });
    expect(retried.qr_code).toMatch(/^00020126PIX/);
    expect(await rows()).toEqual([{ id: row?.id, status: 'pending', last_error: null, mp_payment_id: expect.any(String) }]);
    expect([...mp.payments.values()].filter((p) => p.external_reference === String(row?.id))).toHaveLength(1);
  });

  it('a failed charge Mercado Pago made after all renews once when paid', async () => {
    const line = await createLine(t, reseller.token, { package_id: pkg });
    const token = await customerOf(line);
    mp.failCreates(500, { made: true }); // the charge is made; its answer is lost
    try {
      expect((await customerCall(token, 'POST', '/api/customer/payments', { package_id: pkg }, 'renew-key-lost-answer')).statusCode).toBe(502);
    } finally {
      mp.failCreates();
    }
    const row = await t.database.db.selectFrom('payments').select(['id', 'status']).where('line_id', '=', line.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    const made = [...mp.payments.values()].find((p) => p.external_reference === String(row.id))!;
    mp.set(made.id, { status: 'approved' });
    expect((await deliver(mp.notification(made.id, SECRET))).statusCode).toBe(200);
    expect(await statusOf(Number(row.id))).toBe('applied');
    expect(await renewals(line.id)).toBe(1);
  });

  it('a blocked line is offered nothing and gets no charge', async () => {
    const line = await createLine(t, reseller.token, { package_id: pkg });
    const token = await customerOf(line);
    expect((await t.call(reseller.token, { method: 'POST', url: `/api/users/${line.id}/block` })).statusCode).toBe(200);
    const view = await customerCall(token, 'GET', '/api/customer/line');
    expect(view.json()).toMatchObject({ enabled: false, payments_enabled: false, offers: [] });
    const refused = await customerCall(token, 'POST', '/api/customer/payments', { package_id: pkg }, 'renew-key-blocked');
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('LINE_BLOCKED');
    expect(await t.database.db.selectFrom('payments').select('id').where('line_id', '=', line.id).execute()).toEqual([]);
  });
});
