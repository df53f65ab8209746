import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { checkPending } from '../src/modules/payments/notifications.ts';
import { applyAwaitingSales } from '../src/modules/creditsales/service.ts';
import { adminWithPackage, balanceOf, createSignedInReseller, ledgerSumOf, mint } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { type Notification, startMercadoPago } from './standins/mercadopago.ts';

// Resellers buy credits by PIX from their parent (docs/payments.md, "Credit sales") against the
// Mercado Pago stand-in: the credits move once whatever the notifications (duplicate, concurrent,
// out of order, forged, wrong amount); an admin seller mints; a seller short of credits makes the
// purchase wait (said once) until credited; the poller finds a lost notification and expires.

const PASS = 'Kq7.vX2p_Rz9@tLm';
const TOKEN = 'APP_USR-1234567890-stand-in';
const SECRET = 'mp-webhook-secret-0123';

describe(`credit purchases (${ENGINE})`, () => {
  let t: TestContext;
  let mp: Awaited<ReturnType<typeof startMercadoPago>>;
  let admin: string;
  let adminId: number;
  let groups: Record<string, number>;
  let master: { id: number; token: string };
  let buyer: { id: number; token: string };

  const deliver = (n: Notification) => t.app.inject({ method: 'POST', url: n.path, headers: { ...n.headers, 'content-type': 'application/json' }, payload: n.body });
  const buy = (token: string, credits: number, key: string) => t.call(token, { method: 'POST', url: '/api/credit-purchases', payload: { credits }, headers: { 'idempotency-key': key } });
  async function bought(token: string, credits: number, key: string) {
    const res = await buy(token, credits, key);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: number; status: string; credits: number; amount_cents: number; qr_code: string; qr_code_base64: string; expires_at: number };
  }
  const row = (id: number) => t.database.db.selectFrom('credit_purchases').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const mpIdOf = async (id: number) => Number((await row(id)).mp_payment_id);
  const statusOf = async (id: number) => (await row(id)).status;
  const purchaseLedger = async (id: number) => (await t.database.db.selectFrom('credit_ledger').select(['reseller_id', 'delta', 'reason']).where('idempotency_key', '=', `cp-${id}`).orderBy('id').execute());
  const purchaseLogs = async (id: number) => (await t.database.db.selectFrom('logs').select(['action', 'value_int']).where('action', '=', 'credit_purchase').where('value', '=', `cp-${id}`).execute());
  async function sells(token: string, price: number, min = 1) {
    await t.call(token, { method: 'PUT', url: '/api/payments/settings', payload: { mercadopago_access_token: TOKEN, mercadopago_webhook_secret: SECRET } });
    const res = await t.call(token, { method: 'PUT', url: '/api/credit-sales/settings', payload: { enabled: true, price_cents_per_credit: price, min_credits: min } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  async function approve(id: number) {
    const mpId = await mpIdOf(id);
    mp.set(mpId, { status: 'approved' });
    return mpId;
  }

  beforeAll(async () => {
    mp = await startMercadoPago(TOKEN);
    t = await createTestContext({ mercadopagoApiUrl: mp.url, publicUrl: 'https://painel.example', paymentsCheckAfterSeconds: 300, outboundAllowNetworks: ['127.0.0.1/32'] });
    ({ admin, groups } = await adminWithPackage(t));
    master = await createSignedInReseller(t, admin, { username: 'cs_master', password: PASS, type: 'master', credits: 100, groups });
    adminId = Number((await t.database.db.selectFrom('resellers').select('owner_id').where('id', '=', master.id).executeTakeFirstOrThrow()).owner_id);
    buyer = await createSignedInReseller(t, master.token, { username: 'cs_buyer', password: PASS, type: 'reseller', credits: 0, groups });
  });
  afterAll(async () => {
    await t?.close();
    await mp?.close();
  });

  it("the parent's settings: on needs its Mercado Pago credentials; integers within bounds", async () => {
    const fresh = await t.call(master.token, { method: 'GET', url: '/api/credit-sales/settings' });
    expect(fresh.json()).toMatchObject({ enabled: false, mercadopago_ready: false });
    const off = await t.call(buyer.token, { method: 'GET', url: '/api/credit-purchases/offer' });
    expect(off.json()).toEqual({ enabled: false, price_cents_per_credit: 0, min_credits: 0 });
    expect((await buy(buyer.token, 20, 'cp-key-early')).json().code).toBe('NOT_CONFIGURED');
    const early = await t.call(master.token, { method: 'PUT', url: '/api/credit-sales/settings', payload: { enabled: true, price_cents_per_credit: 150 } });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ code: 'VALIDATION', reason: 'REQUIRED_TO_ENABLE' });
    expect((await t.call(master.token, { method: 'PUT', url: '/api/credit-sales/settings', payload: { price_cents_per_credit: 1.5 } })).statusCode).toBe(400);
    expect((await t.call(master.token, { method: 'PUT', url: '/api/credit-sales/settings', payload: { price_cents_per_credit: 0 } })).statusCode).toBe(400);
    expect(await sells(master.token, 150, 10)).toMatchObject({ enabled: true, price_cents_per_credit: 150, min_credits: 10, mercadopago_ready: true });
    // a smallest purchase above the largest charge (2,147,483,647 cents) could never be bought: refused, nothing saved
    const unbuyable = await t.call(master.token, { method: 'PUT', url: '/api/credit-sales/settings', payload: { price_cents_per_credit: 100_000, min_credits: 30_000 } });
    expect(unbuyable.statusCode).toBe(400);
    expect(unbuyable.json()).toMatchObject({ code: 'VALIDATION', field: 'min_credits', reason: 'OUT_OF_RANGE', limits: { min: 1, max: 21_474 } });
    // a plain reseller sells to nobody
    expect((await t.call(buyer.token, { method: 'GET', url: '/api/credit-sales/settings' })).statusCode).toBe(403);
    const offer = await t.call(buyer.token, { method: 'GET', url: '/api/credit-purchases/offer' });
    expect(offer.json()).toEqual({ enabled: true, price_cents_per_credit: 150, min_credits: 10 });
  });

  it('a purchase: one charge per Idempotency-Key at the parent, min_credits, the admin buys from nobody', async () => {
    const small = await buy(buyer.token, 9, 'cp-key-small');
    expect(small.statusCode).toBe(400);
    expect(small.json()).toMatchObject({ code: 'VALIDATION', field: 'credits' });
    const creates = mp.creates();
    const first = await bought(buyer.token, 20, 'cp-key-0001');
    expect(first).toMatchObject({ status: 'pending', credits: 20, amount_cents: 3000 });
    expect(first.qr_code).toMatch(/^00020126PIX/);
    expect(first.expires_at - nowSec()).toBeGreaterThan(29 * 60);
    const again = await bought(buyer.token, 20, 'cp-key-0001');
    expect(again).toEqual(first);
    expect(mp.creates()).toBe(creates + 1);
    expect((await buy(buyer.token, 21, 'cp-key-0001')).json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const charged = mp.payments.get(await mpIdOf(first.id))!;
    expect(charged).toMatchObject({ external_reference: `cp-${first.id}`, transaction_amount: 30 });
    expect(charged.notification_url).toBe(`https://painel.example/api/payments/mercadopago/webhook?reseller=${master.id}`);
    expect((await t.call(buyer.token, { method: 'POST', url: '/api/credit-purchases', payload: { credits: 20 } })).statusCode).toBe(400); // no key
    const adminBuys = await buy(admin, 20, 'cp-key-admin');
    expect(adminBuys.statusCode).toBe(409);
    expect(adminBuys.json().code).toBe('NO_PARENT');
  });

  it('approved once under duplicate, concurrent and out-of-order notifications; forged and wrong-amount change nothing', async () => {
    const a = await bought(buyer.token, 10, 'cp-key-0002');
    const b = await bought(buyer.token, 12, 'cp-key-0003');
    const masterBefore = await balanceOf(t.database.db, master.id);
    const buyerBefore = await balanceOf(t.database.db, buyer.id);
    const mpA = await mpIdOf(a.id);
    // pending at Mercado Pago: nothing
    expect((await deliver(mp.notification(mpA, SECRET))).statusCode).toBe(200);
    expect(await statusOf(a.id)).toBe('pending');
    await approve(a.id);
    // forged: 401, nothing
    expect((await deliver(mp.notification(mpA, SECRET, { forge: true }))).statusCode).toBe(401);
    expect(await statusOf(a.id)).toBe('pending');
    expect(await balanceOf(t.database.db, buyer.id)).toBe(buyerBefore);

    const mpB = await approve(b.id);
    // b's notification first, then a's five at once, then duplicates of both
    expect((await deliver(mp.notification(mpB, SECRET))).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(mp.notification(mpA, SECRET))));
    expect(answers.map((x) => x.statusCode)).toEqual([200, 200, 200, 200, 200]);
    await Promise.all([deliver(mp.notification(mpB, SECRET)), deliver(mp.notification(mpA, SECRET))]);
    expect(await statusOf(a.id)).toBe('applied');
    expect(await statusOf(b.id)).toBe('applied');
    expect(await balanceOf(t.database.db, master.id)).toBe(masterBefore - 22);
    expect(await balanceOf(t.database.db, buyer.id)).toBe(buyerBefore + 22);
    expect(await ledgerSumOf(t.database.db, master.id)).toBe(masterBefore - 22);
    expect(await ledgerSumOf(t.database.db, buyer.id)).toBe(buyerBefore + 22);
    expect(await purchaseLedger(a.id)).toEqual([
      { reseller_id: master.id, delta: -10, reason: 'purchase_out' },
      { reseller_id: buyer.id, delta: 10, reason: 'purchase_in' },
    ]);
    expect(await purchaseLogs(a.id)).toEqual([{ action: 'credit_purchase', value_int: 10 }]);
    const seen = await t.call(buyer.token, { method: 'GET', url: `/api/credit-purchases/${a.id}` });
    expect(seen.json()).toMatchObject({ status: 'applied', credits: 10 });
    expect((await t.call(master.token, { method: 'GET', url: `/api/credit-purchases/${a.id}` })).statusCode).toBe(200);

    // approved with another amount: not applied
    const c = await bought(buyer.token, 10, 'cp-key-0004');
    const mpC = await approve(c.id);
    mp.set(mpC, { transaction_amount: 1 });
    await deliver(mp.notification(mpC, SECRET));
    expect(await statusOf(c.id)).toBe('pending');
    expect((await row(c.id)).last_error).toContain('expected 15 BRL');
    expect(await balanceOf(t.database.db, buyer.id)).toBe(buyerBefore + 22);
  });

  it('an admin-sold purchase mints: no debit of the admin', async () => {
    await sells(admin, 100);
    const top = await createSignedInReseller(t, admin, { username: 'cs_top', password: PASS, type: 'reseller', credits: 0, groups });
    const adminBefore = await balanceOf(t.database.db, adminId);
    const p = await bought(top.token, 5, 'cp-key-admin1');
    expect(p.amount_cents).toBe(500);
    expect(mp.payments.get(await mpIdOf(p.id))!.notification_url).toBe(`https://painel.example/api/payments/mercadopago/webhook?reseller=${adminId}`);
    const mpId = await approve(p.id);
    await Promise.all([deliver(mp.notification(mpId, SECRET)), deliver(mp.notification(mpId, SECRET))]);
    expect(await statusOf(p.id)).toBe('applied');
    expect(await balanceOf(t.database.db, top.id)).toBe(5);
    expect(await ledgerSumOf(t.database.db, top.id)).toBe(5);
    expect(await balanceOf(t.database.db, adminId)).toBe(adminBefore);
    expect(await purchaseLedger(p.id)).toEqual([{ reseller_id: top.id, delta: 5, reason: 'purchase_in' }]);
  });

  it('a parent short of credits: the purchase waits (said once), then applies when the parent is credited', async () => {
    const poorMaster = await createSignedInReseller(t, admin, { username: 'cs_poor', password: PASS, type: 'master', credits: 3, groups });
    await sells(poorMaster.token, 200);
    const hook = await t.call(poorMaster.token, { method: 'POST', url: '/api/webhooks', payload: { url: 'http://127.0.0.1:9/hook', events: ['credits.purchase_waiting', 'credits.purchased'] } });
    expect(hook.statusCode, hook.body).toBe(201);
    const child = await createSignedInReseller(t, poorMaster.token, { username: 'cs_child', password: PASS, type: 'reseller', credits: 1, groups });
    const p = await bought(child.token, 5, 'cp-key-poor1');
    const mpId = await approve(p.id);
    await deliver(mp.notification(mpId, SECRET));
    await Promise.all([deliver(mp.notification(mpId, SECRET)), deliver(mp.notification(mpId, SECRET))]);
    expect(await statusOf(p.id)).toBe('paid_awaiting_credits');
    expect(await balanceOf(t.database.db, child.id)).toBe(1);
    expect(await balanceOf(t.database.db, poorMaster.id)).toBe(2);
    const events = async (type: string) => (await t.database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', hook.json().id).where('type', '=', type).execute()).length;
    expect(await events('credits.purchase_waiting')).toBe(1);
    expect((await t.call(poorMaster.token, { method: 'GET', url: '/api/credit-sales/summary' })).json()).toEqual({ awaiting_credits: 1 });
    expect(await applyAwaitingSales(t.deps)).toBe(0);

    // the admin's gift applies it, without the worker
    await mint(t, admin, poorMaster.id, 10);
    await expect.poll(() => statusOf(p.id), { timeout: 5000 }).toBe('applied');
    expect(await balanceOf(t.database.db, child.id)).toBe(6);
    expect(await balanceOf(t.database.db, poorMaster.id)).toBe(7);
    expect(await ledgerSumOf(t.database.db, poorMaster.id)).toBe(7);
    expect(await ledgerSumOf(t.database.db, child.id)).toBe(6);
    expect(await events('credits.purchase_waiting')).toBe(1);
    expect(await events('credits.purchased')).toBe(1);
    expect((await t.call(poorMaster.token, { method: 'GET', url: '/api/credit-sales/summary' })).json()).toEqual({ awaiting_credits: 0 });
    await deliver(mp.notification(mpId, SECRET));
    expect(await balanceOf(t.database.db, child.id)).toBe(6);
  });

  it("a buyer whose balance is at its limit waits alone: the parent's later sales still apply, and the parent is not asked for credits for it", async () => {
    const seller = await createSignedInReseller(t, admin, { username: 'cs_seller2', password: PASS, type: 'master', credits: 0, groups });
    await sells(seller.token, 100);
    const hook = await t.call(seller.token, { method: 'POST', url: '/api/webhooks', payload: { url: 'http://127.0.0.1:9/hook', events: ['credits.purchase_waiting'] } });
    expect(hook.statusCode, hook.body).toBe(201);
    const waitingEvents = async () => (await t.database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', hook.json().id).execute()).length;
    const full = await createSignedInReseller(t, seller.token, { username: 'cs_full', password: PASS, type: 'reseller', credits: 0, groups });
    const other = await createSignedInReseller(t, seller.token, { username: 'cs_other', password: PASS, type: 'reseller', credits: 0, groups });
    const first = await bought(full.token, 5, 'cp-key-full1');
    const second = await bought(other.token, 5, 'cp-key-other1');
    await deliver(mp.notification(await approve(first.id), SECRET));
    await deliver(mp.notification(await approve(second.id), SECRET));
    expect([await statusOf(first.id), await statusOf(second.id)]).toEqual(['paid_awaiting_credits', 'paid_awaiting_credits']);
    expect(await waitingEvents()).toBe(2);
    // meanwhile the first buyer's balance reached the largest one: its purchase cannot apply, the older one in the queue
    await t.database.db.updateTable('resellers').set({ credits: 2_147_483_646 }).where('id', '=', full.id).execute();
    await mint(t, admin, seller.id, 20);
    await expect.poll(() => statusOf(second.id), { timeout: 5000 }).toBe('applied');
    expect(await balanceOf(t.database.db, other.id)).toBe(5);
    expect(await row(first.id)).toMatchObject({ status: 'paid_awaiting_credits', last_error: "the buyer's balance cannot grow any further" });
    // a sale that waits only for the buyer's room asks the seller for nothing
    const third = await bought(full.token, 5, 'cp-key-full2');
    await deliver(mp.notification(await approve(third.id), SECRET));
    expect(await statusOf(third.id)).toBe('paid_awaiting_credits');
    expect(await waitingEvents()).toBe(2);
    expect(await balanceOf(t.database.db, seller.id)).toBe(15);
  });

  it('lists by direction and status; another account gets 404; sales off answer 503', async () => {
    const p = await bought(buyer.token, 10, 'cp-key-list1');
    const mine = await t.call(buyer.token, { method: 'GET', url: '/api/credit-purchases?direction=bought&per=100' });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().data.every((r: { direction: string; buyer_id: number }) => r.direction === 'bought' && r.buyer_id === buyer.id)).toBe(true);
    expect(mine.json().data[0]).toMatchObject({ id: p.id, seller: 'cs_master', buyer: 'cs_buyer', status: 'pending' });
    expect((await t.call(buyer.token, { method: 'GET', url: '/api/credit-purchases?direction=sold' })).json().meta.total).toBe(0);
    const sold = await t.call(master.token, { method: 'GET', url: '/api/credit-purchases?direction=sold&status=applied' });
    expect(sold.json().data.length).toBeGreaterThanOrEqual(2);
    expect(sold.json().data.every((r: { direction: string; status: string }) => r.direction === 'sold' && r.status === 'applied')).toBe(true);
    const both = await t.call(master.token, { method: 'GET', url: '/api/credit-purchases?per=100' });
    expect(both.json().data.map((r: { id: number }) => r.id)).toContain(p.id);
    const paged = await t.call(master.token, { method: 'GET', url: '/api/credit-purchases?direction=sold&per=10&page=1' });
    expect(paged.json().meta).toMatchObject({ page: 1, per: 10 });

    const stranger = await createSignedInReseller(t, admin, { username: 'cs_stranger', password: PASS, type: 'reseller', credits: 0, groups });
    expect((await t.call(stranger.token, { method: 'GET', url: `/api/credit-purchases/${p.id}` })).statusCode).toBe(404);
    expect((await t.call(stranger.token, { method: 'GET', url: '/api/credit-purchases' })).json().meta.total).toBe(0);

    await t.call(master.token, { method: 'PUT', url: '/api/credit-sales/settings', payload: { enabled: false } });
    const off = await buy(buyer.token, 10, 'cp-key-off1');
    expect(off.statusCode).toBe(503);
    expect(off.json().code).toBe('NOT_CONFIGURED');
    // the same key of a charge made before still answers it
    expect((await bought(buyer.token, 10, 'cp-key-list1')).id).toBe(p.id);
    await sells(master.token, 150, 10);
  });

  it('the poller applies a purchase whose notification was lost and expires one nobody paid', async () => {
    const paid = await bought(buyer.token, 10, 'cp-key-lost1');
    const unpaid = await bought(buyer.token, 10, 'cp-key-lost2');
    const before = await balanceOf(t.database.db, buyer.id);
    await approve(paid.id);
    const now = nowSec();
    await checkPending(t.deps, now + 60); // too young to ask about
    expect(await statusOf(paid.id)).toBe('pending');
    await checkPending(t.deps, now + 400);
    expect(await statusOf(paid.id)).toBe('applied');
    expect(await balanceOf(t.database.db, buyer.id)).toBe(before + 10);
    expect(await statusOf(unpaid.id)).toBe('pending');
    await checkPending(t.deps, now + 30 * 60 + 700);
    expect(await statusOf(unpaid.id)).toBe('expired');
    expect(await balanceOf(t.database.db, buyer.id)).toBe(before + 10);
  });
});
