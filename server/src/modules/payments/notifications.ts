import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { openSecret } from '../twofactor/service.ts';
import { actOnPurchase, checkPendingPurchases, isPurchaseReference } from '../creditsales/service.ts';
import { emitPaymentEvent } from '../webhooks/service.ts';
import { applyPaid } from './apply.ts';
import { type MpPayment, fetchPayment, validSignature } from './mercadopago.ts';
import * as repo from './repo.ts';

// What Mercado Pago tells us, by webhook or when asked: acted on only from its own GET of the
// payment, never from a notification's body.

export const TOKEN_PURPOSE = 'mercadopago-token';
export const SECRET_PURPOSE = 'mercadopago-secret';

export async function accountToken(deps: Deps, resellerId: number): Promise<string | undefined> {
  const s = await repo.settingsOf(deps.database.db, resellerId);
  return s?.token_sealed ? ((await openSecret(deps, resellerId, s.token_sealed, TOKEN_PURPOSE)) ?? undefined) : undefined;
}

export interface Notification {
  resellerId: number;
  dataId: string;
  type: string | undefined;
  signature: string | undefined;
  requestId: string | undefined;
}

/** POST /api/payments/mercadopago/webhook: the signature first (401, nothing done), then the payment as Mercado Pago has it. */
export async function onNotification(deps: Deps, n: Notification): Promise<void> {
  const s = await repo.settingsOf(deps.database.db, n.resellerId);
  const secret = s?.secret_sealed ? await openSecret(deps, n.resellerId, s.secret_sealed, SECRET_PURPOSE) : null;
  if (!secret || !validSignature(secret, n.signature, n.requestId, n.dataId, nowSec())) throw appError('INVALID_SIGNATURE');
  if (n.type !== undefined && n.type !== 'payment') return;
  const token = await accountToken(deps, n.resellerId);
  if (!token) return;
  const mp = await fetchPayment(deps.config.mercadopagoApiUrl, token, n.dataId);
  if (mp) await actOn(deps, n.resellerId, mp);
}

/** Acts on Mercado Pago's view of a payment of ours: approved renews (once), rejected or cancelled ends it. A credit purchase's goes to modules/creditsales. */
export async function actOn(deps: Deps, resellerId: number, mp: MpPayment): Promise<void> {
  // a credit purchase (`cp-<id>`, sold by this account to a sub-reseller): its own module
  if (isPurchaseReference(mp.external_reference)) return actOnPurchase(deps, resellerId, mp);
  const db = deps.database.db;
  const ref = Number(mp.external_reference);
  if (!Number.isSafeInteger(ref) || ref <= 0) return;
  const p = await repo.paymentById(db, ref);
  // ours, this account's, and the charge we made for it (a payment id we never saw is taken only if the row has none)
  if (!p || p.reseller_id !== resellerId || (p.mp_payment_id !== null && p.mp_payment_id !== mp.id)) return;
  if (p.mp_payment_id === null) await repo.recordCharge(db, p.id, { mp_payment_id: mp.id, qr_code: null, qr_code_base64: null, ticket_url: null }).catch(() => undefined);
  if (mp.status === 'approved') {
    if (Math.round(mp.transaction_amount * 100) !== p.amount_cents || mp.currency_id !== 'BRL') {
      await repo.recordError(db, p.id, `approved with ${mp.transaction_amount} ${mp.currency_id}, expected ${p.amount_cents / 100} BRL: not applied`);
      return;
    }
    await applyPaid(deps, p.id);
    return;
  }
  if (mp.status === 'rejected' || mp.status === 'cancelled') {
    const to = mp.status === 'cancelled' && nowSec() >= p.expires_at ? 'expired' : 'rejected';
    await withTx(deps.database, async (trx) => {
      if (await repo.setStatus(trx, p.id, ['pending'], to, { checked_at: nowSec() })) {
        await emitPaymentEvent(trx, resellerId, 'payment.failed', { id: p.id, line_id: p.line_id, package_id: p.package_id, amount_cents: p.amount_cents, currency: 'BRL', status: to, mercadopago_payment_id: mp.id });
      }
    });
  }
}

/**
 * The poller's part: pending charges older than PAYMENTS_CHECK_AFTER_SECONDS are asked about (a
 * webhook may have been lost), each at most once per that time; a charge past its expiry that
 * Mercado Pago still calls pending, or one never created there, is expired. Credit purchases too
 * (modules/creditsales).
 */
export async function checkPending(deps: Deps, now = nowSec()): Promise<void> {
  const db = deps.database.db;
  const after = deps.config.paymentsCheckAfterSeconds;
  for (const p of await repo.stalePending(db, now - after, now - after, 50)) {
    await repo.markChecked(db, p.id, now);
    try {
      const token = await accountToken(deps, p.reseller_id);
      const mp = token && p.mp_payment_id ? await fetchPayment(deps.config.mercadopagoApiUrl, token, p.mp_payment_id) : undefined;
      if (mp) await actOn(deps, p.reseller_id, mp);
    } catch (err) {
      await repo.recordError(db, p.id, err instanceof Error ? err.message : String(err));
    }
    if (now > p.expires_at + after) {
      await withTx(deps.database, async (trx) => {
        if (await repo.setStatus(trx, p.id, ['pending'], 'expired')) {
          await emitPaymentEvent(trx, p.reseller_id, 'payment.failed', { id: p.id, line_id: p.line_id, package_id: p.package_id, amount_cents: p.amount_cents, currency: 'BRL', status: 'expired', mercadopago_payment_id: p.mp_payment_id });
        }
      });
    }
  }
  await checkPendingPurchases(deps, now);
}
