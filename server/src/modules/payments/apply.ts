import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { applyAwaitingSalesSoon } from '../creditsales/service.ts';
import { changeLine, renewalByPackage } from '../lines/service.ts';
import { tellPixApplied, tellPixWaiting } from '../telegram/service.ts';
import { emitPaymentEvent } from '../webhooks/service.ts';
import * as repo from './repo.ts';
import { processLogger } from '../../lib/logger.ts';

// An approved payment renews its line exactly once: in one transaction the payment row is locked,
// found not applied yet, the line renewed by the paid package with the owner's credits charged as
// a panel renewal (lines' renewalByPackage and applyLineChange: ledger, log, event), and the row marked applied. Any number of webhooks, pollers and
// processes may call this for the same payment: the first applies it, the others find it applied.
// An owner short of credits: the payment waits as paid_awaiting_credits and is applied later.

// `failed` too: a charge we could not confirm (its answer timed out) may exist at Mercado Pago and be paid
const NOT_APPLIED = ['pending', 'paid_awaiting_credits', 'expired', 'rejected', 'failed'] as const;

export type ApplyOutcome = 'applied' | 'awaiting_credits' | 'already' | 'gone';

const eventOf = (p: repo.FullPayment, status: string, extra: Record<string, unknown> = {}) => ({
  id: p.id,
  line_id: p.line_id,
  package_id: p.package_id,
  amount_cents: p.amount_cents,
  currency: 'BRL',
  status,
  mercadopago_payment_id: p.mp_payment_id,
  ...extra,
});

export async function applyPaid(deps: Deps, paymentId: number): Promise<ApplyOutcome> {
  const db = deps.database.db;
  const p = await repo.paymentById(db, paymentId);
  if (!p) return 'gone';
  if (p.status === 'applied') return 'already';
  const owner = await repo.ownerAsActor(db, p.reseller_id);
  if (!owner) return 'gone';
  let outcome: ApplyOutcome = 'already';
  try {
    await changeLine(deps, owner, p.line_id, async (trx, line) => {
      const locked = await repo.lockPayment(trx, p.id, deps.database.dialect);
      if (!locked || locked.status === 'applied') return undefined;
      const t = nowSec();
      const renewal = await renewalByPackage(trx, line, locked.package_id);
      await repo.setStatus(trx, p.id, [...NOT_APPLIED], 'applied', { applied_at: t, paid_at: t, exp_before: line.exp_date, exp_after: renewal.set.exp_date, last_error: null });
      await emitPaymentEvent(trx, owner.id, 'payment.approved', eventOf(locked, 'applied', { exp_date: renewal.set.exp_date }));
      await tellPixApplied(deps, trx, { resellerId: owner.id, lineId: line.id, username: line.username, amountCents: locked.amount_cents, expDate: renewal.set.exp_date });
      outcome = 'applied';
      return { ...renewal, pixCents: locked.amount_cents };
    });
    return outcome;
  } catch (err) {
    if (!(err instanceof AppError) || (err.code !== 'INSUFFICIENT_CREDITS' && err.code !== 'NOT_FOUND')) throw err;
    const why = err.code === 'INSUFFICIENT_CREDITS' ? 'waiting for credits' : 'the line is gone: renew another line by hand or refund';
    // paid, not applied: said once (the first time it waits), applied by the worker when it can be
    const first = await withTx(deps.database, async (trx) => {
      const moved = await repo.setStatus(trx, p.id, ['pending', 'expired', 'rejected', 'failed'], 'paid_awaiting_credits', { paid_at: nowSec(), last_error: why });
      if (moved) {
        await emitPaymentEvent(trx, p.reseller_id, 'payment.approved', eventOf(p, 'paid_awaiting_credits'));
        const line = await repo.customerLine(trx, p.line_id);
        await tellPixWaiting(trx, { resellerId: p.reseller_id, lineId: p.line_id, username: line?.username ?? `#${p.line_id}`, amountCents: p.amount_cents });
      }
      else await repo.recordError(trx, p.id, why);
      return moved;
    });
    void first;
    return 'awaiting_credits';
  }
}

/** Tries the account's (or everyone's) payments waiting for credits, oldest first, until one still cannot be paid. */
export async function applyAwaiting(deps: Deps, resellerId?: number): Promise<number> {
  let applied = 0;
  const stuck = new Set<number>();
  for (const p of await repo.awaitingCredits(deps.database.db, 200, resellerId)) {
    if (stuck.has(p.reseller_id)) continue;
    const outcome = await applyPaid(deps, p.id);
    if (outcome === 'applied') applied++;
    else if (outcome === 'awaiting_credits') stuck.add(p.reseller_id); // its balance is short: the later ones wait too
  }
  return applied;
}

/**
 * After credits reach an account (a gift or a mint): its payments waiting for credits are applied
 * now, not at the worker's next round, and so are its credit sales waiting for them (modules/creditsales). In the background: the gift's answer does not wait for the
 * renewals, and a failure here leaves them to the worker.
 */
export function applyAwaitingSoon(deps: Deps, resellerId: number): void {
  void applyAwaiting(deps, resellerId).catch((err) => processLogger().error({ err, resellerId }, "payments: applying an account's waiting payments failed"));
  applyAwaitingSalesSoon(deps, resellerId);
}
