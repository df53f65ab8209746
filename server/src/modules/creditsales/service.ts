import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError, validation } from '../../http/errors.ts';
import { cursorOf } from '../../http/paging.ts';
import { nowSec } from '../../lib/clock.ts';
import { accountToken, createPixCharge, fetchPayment, mercadoPagoReady, type MpPayment } from '../payments/service.ts';
import { applyPaid, reference } from './apply.ts';
import * as repo from './repo.ts';

// Resellers buy credits by PIX from their parent (docs/payments.md, "Credit sales"): the parent (the
// buyer's owner: a master, or the admin for top-level accounts) sells through its own Mercado Pago
// account; an approved payment moves the credits once (apply.ts).

const CHARGE_SECONDS = 30 * 60;
/** amounts are integer cents in an `integer` column */
const MAX_AMOUNT_CENTS = 2_147_483_647;

// ---- the seller's offer

export async function getSettings(deps: Deps, user: AuthUser) {
  const [o, ready] = await Promise.all([repo.offerOf(deps.database.db, user.id), mercadoPagoReady(deps, user.id)]);
  return { enabled: o?.enabled === 1, price_cents_per_credit: o?.price_cents_per_credit ?? 0, min_credits: o?.min_credits ?? 1, mercadopago_ready: ready, public_url_configured: Boolean(deps.config.publicUrl) };
}

export interface SettingsInput {
  enabled?: boolean;
  price_cents_per_credit?: number;
  min_credits?: number;
}

export async function putSettings(deps: Deps, user: AuthUser, input: SettingsInput) {
  const ready = await mercadoPagoReady(deps, user.id);
  await withTx(deps.database, async (trx) => {
    const own = await repo.offerOf(trx, user.id);
    const enabled = input.enabled === undefined ? (own?.enabled ?? 0) : input.enabled ? 1 : 0;
    const price = input.price_cents_per_credit ?? own?.price_cents_per_credit;
    const min = input.min_credits ?? own?.min_credits ?? 1;
    if (price === undefined) throw validation('price_cents_per_credit', 'required', 'REQUIRED');
    // the smallest purchase must fit in one charge, or no buyer could ever buy
    if (min * price > MAX_AMOUNT_CENTS) throw validation('min_credits', 'the smallest purchase would be above the largest charge', 'OUT_OF_RANGE', { min: 1, max: Math.floor(MAX_AMOUNT_CENTS / price) });
    // On, sales need the account's Mercado Pago credentials (its PIX settings): no charge could be made or confirmed without them.
    if (enabled && !ready) throw validation('mercadopago_access_token', 'set the Mercado Pago access token and webhook secret in the PIX settings to sell credits', 'REQUIRED_TO_ENABLE');
    await repo.saveOffer(trx, { reseller_id: user.id, enabled, price_cents_per_credit: price, min_credits: min, updated_at: nowSec() });
  });
  return getSettings(deps, user);
}

/** The seller's offer when its sales can be charged (on, credentials set, a public address for notifications), else undefined. */
async function openOffer(deps: Deps, sellerId: number) {
  const o = await repo.offerOf(deps.database.db, sellerId);
  if (o?.enabled !== 1 || !deps.config.publicUrl) return undefined;
  const token = await accountToken(deps, sellerId);
  return token && (await mercadoPagoReady(deps, sellerId)) ? { ...o, token } : undefined;
}

/** The caller's parent, who sells to it; the admin has none (NO_PARENT). */
async function parentOf(deps: Deps, user: AuthUser): Promise<number> {
  const me = await repo.accountOf(deps.database.db, user.id);
  if (!me || me.type === 'admin' || me.owner_id === null || me.owner_id === me.id) throw appError('NO_PARENT');
  return me.owner_id;
}

const notConfigured = () => appError('NOT_CONFIGURED', { params: { what: 'Credit sales of your parent account' } });

/** GET /api/credit-purchases/offer: what the caller's parent asks per credit; `enabled: false` (and zeros) while it sells none (a purchase would answer NOT_CONFIGURED). */
export async function offer(deps: Deps, user: AuthUser) {
  const o = await openOffer(deps, await parentOf(deps, user));
  return o ? { enabled: true, price_cents_per_credit: o.price_cents_per_credit, min_credits: o.min_credits } : { enabled: false, price_cents_per_credit: 0, min_credits: 0 };
}

// ---- purchases

const shown = (p: repo.Purchase) => ({
  id: p.id,
  status: p.status,
  credits: p.credits,
  amount_cents: p.amount_cents,
  qr_code: p.qr_code,
  qr_code_base64: p.qr_code_base64,
  expires_at: p.expires_at,
  created_at: p.created_at,
  applied_at: p.applied_at,
  buyer_id: p.buyer_id,
  seller_id: p.seller_id,
});

/**
 * A PIX charge at the parent's Mercado Pago for `credits`. The row is written first (unique per
 * buyer and Idempotency-Key: the same key answers the same purchase) and `cp-<id>` is both the
 * charge's X-Idempotency-Key and its external_reference, so asking again after a failure makes no
 * second charge, and a notification tells a purchase from a customer's payment (a bare number).
 */
export async function createPurchase(deps: Deps, user: AuthUser, credits: number, key: string) {
  const db = deps.database.db;
  const sellerId = await parentOf(deps, user);
  const existing = await repo.purchaseByKey(db, user.id, key);
  if (existing && existing.credits !== credits) throw appError('IDEMPOTENCY_KEY_REUSED');
  if (existing && (existing.mp_payment_id !== null || (existing.status !== 'pending' && existing.status !== 'failed'))) return shown(existing);
  const o = await openOffer(deps, sellerId);
  if (!o) throw notConfigured();
  if (!existing) {
    if (credits < o.min_credits) throw validation('credits', `at least ${o.min_credits}`, 'OUT_OF_RANGE', { min: o.min_credits });
    const amount = credits * o.price_cents_per_credit;
    if (amount > MAX_AMOUNT_CENTS) throw validation('credits', 'too many for one payment', 'OUT_OF_RANGE', { min: o.min_credits, max: Math.floor(MAX_AMOUNT_CENTS / o.price_cents_per_credit) });
    const now = nowSec();
    await repo.insertPurchase(db, { buyer_id: user.id, seller_id: sellerId, credits, amount_cents: amount, idempotency_key: key, expires_at: now + CHARGE_SECONDS, created_at: now });
  }
  let p = await repo.purchaseByKey(db, user.id, key);
  if (!p) throw new Error('the purchase row vanished');
  if (p.credits !== credits) throw appError('IDEMPOTENCY_KEY_REUSED');
  if (p.mp_payment_id !== null || (p.status !== 'pending' && p.status !== 'failed')) return shown(p);
  if (p.status === 'failed') {
    const now = nowSec();
    await repo.renewFailedExpiry(db, p.id, now + CHARGE_SECONDS);
    p = { ...p, expires_at: now + CHARGE_SECONDS };
  }
  let charge: Awaited<ReturnType<typeof createPixCharge>>;
  try {
    charge = await createPixCharge(deps.config.mercadopagoApiUrl, o.token, {
      reference: reference(p.id),
      amountCents: p.amount_cents,
      description: `${p.credits} créditos`,
      payerEmail: `${user.username.toLowerCase().replace(/[^a-z0-9._-]/g, '') || 'revenda'}@revendas.${new URL(deps.config.publicUrl!).hostname}`,
      notificationUrl: `${deps.config.publicUrl!.replace(/\/+$/, '')}/api/payments/mercadopago/webhook?reseller=${sellerId}`,
      expiresAt: p.expires_at,
    });
  } catch (err) {
    await repo.markFailed(db, p.id, err instanceof Error ? err.message : String(err));
    throw err;
  }
  await repo.recordCharge(db, p.id, { mp_payment_id: charge.id, qr_code: charge.qr_code, qr_code_base64: charge.qr_code_base64 });
  return shown({ ...p, status: 'pending', mp_payment_id: charge.id, qr_code: charge.qr_code, qr_code_base64: charge.qr_code_base64 });
}

/** A purchase its buyer or its seller may see; anyone else gets 404. */
export async function view(deps: Deps, user: AuthUser, id: number) {
  const p = await repo.purchaseById(deps.database.db, id);
  if (!p || (p.buyer_id !== user.id && p.seller_id !== user.id)) throw appError('NOT_FOUND', { params: { what: 'Purchase' } });
  return shown(p);
}

export async function list(deps: Deps, user: AuthUser, q: repo.PurchaseFilters & { page?: number; per?: number; after?: string; before?: string }) {
  const page = await repo.listPurchases(deps.database.db, user.id, q, q.page ?? 1, q.per ?? 10, cursorOf(q));
  return { ...page, data: page.data.map((r) => ({ ...r, direction: r.buyer_id === user.id ? ('bought' as const) : ('sold' as const) })) };
}

/** The dashboard's figure: the account's sales paid and waiting for its credits. */
export async function summary(deps: Deps, user: AuthUser) {
  return { awaiting_credits: await repo.countAwaiting(deps.database.db, user.id) };
}

// ---- what Mercado Pago tells (through payments' webhook route and poller)

const REFERENCE = /^cp-(\d{1,15})$/;

/** A Mercado Pago external_reference of a credit purchase (`cp-<id>`); a customer's payment has a bare number. */
export const isPurchaseReference = (ref: string | null | undefined) => typeof ref === 'string' && REFERENCE.test(ref);

/** Acts on Mercado Pago's view (its own GET, never a notification's body) of a purchase sold by `sellerId`: approved moves the credits once, rejected or cancelled ends it. */
export async function actOnPurchase(deps: Deps, sellerId: number, mp: MpPayment): Promise<void> {
  const db = deps.database.db;
  const m = REFERENCE.exec(mp.external_reference ?? '');
  if (!m) return;
  const p = await repo.purchaseById(db, Number(m[1]));
  if (!p || p.seller_id !== sellerId || (p.mp_payment_id !== null && p.mp_payment_id !== mp.id)) return;
  if (p.mp_payment_id === null) await repo.recordPaymentId(db, p.id, mp.id).catch(() => undefined);
  if (mp.status === 'approved') {
    if (Math.round(mp.transaction_amount * 100) !== p.amount_cents || mp.currency_id !== 'BRL') {
      await repo.recordError(db, p.id, `approved with ${mp.transaction_amount} ${mp.currency_id}, expected ${p.amount_cents / 100} BRL: not applied`);
      return;
    }
    await applyPaid(deps, p.id);
    return;
  }
  if (mp.status === 'rejected' || mp.status === 'cancelled') {
    await repo.setStatus(db, p.id, ['pending'], mp.status === 'cancelled' && nowSec() >= p.expires_at ? 'expired' : 'rejected', { checked_at: nowSec() });
  }
}

/** The poller's part (payments/worker.ts): stale pending purchases are asked about at the seller's Mercado Pago; those past their expiry are expired. */
export async function checkPendingPurchases(deps: Deps, now = nowSec()): Promise<void> {
  const db = deps.database.db;
  const after = deps.config.paymentsCheckAfterSeconds;
  for (const p of await repo.stalePending(db, now - after, now - after, 50)) {
    await repo.markChecked(db, p.id, now);
    try {
      const token = await accountToken(deps, p.seller_id);
      const mp = token && p.mp_payment_id ? await fetchPayment(deps.config.mercadopagoApiUrl, token, p.mp_payment_id) : undefined;
      if (mp) await actOnPurchase(deps, p.seller_id, mp);
    } catch (err) {
      await repo.recordError(db, p.id, err instanceof Error ? err.message : String(err));
    }
    if (now > p.expires_at + after) await repo.setStatus(db, p.id, ['pending'], 'expired');
  }
}

export { applyAwaiting as applyAwaitingSales, applyAwaitingSalesSoon } from './apply.ts';
