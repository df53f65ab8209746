import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { processLogger } from '../../lib/logger.ts';
import { mint, transfer } from '../credits/service.ts';
import { writeLog } from '../logs/service.ts';
import { applyAwaitingSoon } from '../payments/service.ts';
import { emitCreditPurchaseEvent } from '../webhooks/service.ts';
import * as repo from './repo.ts';

// An approved purchase moves its credits exactly once: in one transaction the purchase row is
// locked, found not applied, the credits moved from the seller to the buyer by the ledger's transfer
// (an admin seller mints: no debit), the log row written and the row marked applied. Any number of
// notifications, pollers and processes may call this for the same purchase: the first applies it,
// the others find it applied. A seller short of credits: the purchase waits as paid_awaiting_credits
// (said once, by credits.purchase_waiting) and is applied once the seller's balance allows.

const NOT_APPLIED = ['pending', 'paid_awaiting_credits', 'expired', 'rejected', 'failed'] as const;

/** `awaiting_credits`: the seller is short (its later sales wait too); `buyer_full`: this buyer's balance is at its limit (only this one waits). */
export type ApplyOutcome = 'applied' | 'awaiting_credits' | 'buyer_full' | 'already' | 'gone';

export const reference = (id: number) => `cp-${id}`;

export const eventOf = (p: repo.Purchase, status: string) => ({
  id: p.id,
  buyer_id: p.buyer_id,
  seller_id: p.seller_id,
  credits: p.credits,
  amount_cents: p.amount_cents,
  currency: 'BRL',
  status,
  mercadopago_payment_id: p.mp_payment_id,
});

export async function applyPaid(deps: Deps, purchaseId: number): Promise<ApplyOutcome> {
  const db = deps.database.db;
  const p = await repo.purchaseById(db, purchaseId);
  if (!p) return 'gone';
  if (p.status === 'applied') return 'already';
  const seller = await repo.accountOf(db, p.seller_id);
  const buyer = await repo.accountOf(db, p.buyer_id);
  if (!seller || !buyer) {
    await repo.recordError(db, p.id, 'the buyer or the seller is gone: refund it by hand');
    return 'gone';
  }
  try {
    const outcome = await withTx(deps.database, async (trx): Promise<ApplyOutcome> => {
      const locked = await repo.lockPurchase(trx, p.id, deps.database.dialect);
      if (!locked || locked.status === 'applied') return 'already';
      const key = reference(p.id);
      if (seller.type === 'admin') {
        await mint(trx, p.buyer_id, locked.credits, { reason: 'purchase_in', actorId: seller.id, counterpartyId: seller.id, idempotencyKey: key });
      } else {
        await transfer(trx, deps.database.dialect, { fromId: seller.id, toId: p.buyer_id, amount: locked.credits, kind: 'purchase', actorId: seller.id, idempotencyKey: key });
      }
      await writeLog(trx, { type_log: 'credits', action: 'credit_purchase', actor_id: seller.id, reseller_id: seller.id, target_reseller_id: p.buyer_id, value: key, value_int: locked.credits });
      const t = nowSec();
      await repo.setStatus(trx, p.id, [...NOT_APPLIED], 'applied', { applied_at: t, paid_at: locked.paid_at ?? t, last_error: null });
      const event = eventOf(locked, 'applied');
      await emitCreditPurchaseEvent(trx, seller.id, 'credits.purchased', event);
      await emitCreditPurchaseEvent(trx, p.buyer_id, 'credits.purchased', event);
      return 'applied';
    });
    // the buyer's own waiting PIX payments and sales may go now
    if (outcome === 'applied') applyAwaitingSoon(deps, p.buyer_id);
    return outcome;
  } catch (err) {
    if (!(err instanceof AppError) || (err.code !== 'INSUFFICIENT_CREDITS' && err.code !== 'CREDIT_LIMIT')) throw err;
    const sellerShort = err.code === 'INSUFFICIENT_CREDITS';
    const why = sellerShort ? "waiting for the seller's credits" : "the buyer's balance cannot grow any further";
    // paid, not applied: the seller asked for credits once (the first time it waits for them), applied when the balances allow
    await withTx(deps.database, async (trx) => {
      const moved = await repo.setStatus(trx, p.id, ['pending', 'expired', 'rejected', 'failed'], 'paid_awaiting_credits', { paid_at: nowSec(), last_error: why });
      if (moved && sellerShort) await emitCreditPurchaseEvent(trx, p.seller_id, 'credits.purchase_waiting', eventOf(p, 'paid_awaiting_credits'));
      else if (!moved) await repo.recordError(trx, p.id, why);
    });
    return sellerShort ? 'awaiting_credits' : 'buyer_full';
  }
}

/** Tries the seller's (or everyone's) purchases waiting for credits, oldest first; a seller still short keeps its later ones waiting (a buyer at its limit holds back only its own). */
export async function applyAwaiting(deps: Deps, sellerId?: number): Promise<number> {
  let applied = 0;
  const stuck = new Set<number>();
  for (const p of await repo.awaitingCredits(deps.database.db, 200, sellerId)) {
    if (stuck.has(p.seller_id)) continue;
    const outcome = await applyPaid(deps, p.id);
    if (outcome === 'applied') applied++;
    else if (outcome === 'awaiting_credits') stuck.add(p.seller_id);
  }
  return applied;
}

/** After credits reach an account: its sales waiting for credits are applied now, in the background (the worker retries a failure). */
export function applyAwaitingSalesSoon(deps: Deps, sellerId: number): void {
  void applyAwaiting(deps, sellerId).catch((err) => processLogger().error({ err, sellerId }, "credit sales: applying an account's waiting sales failed"));
}
