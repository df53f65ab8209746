import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { burn, lockResellers, mint, type Outcome, runIdempotent, transfer } from '../credits/service.ts';
import { writeLog } from '../logs/service.ts';
import { applyAwaitingSoon } from '../payments/service.ts';
import { loadVisible, requireManagerOf } from './access.ts';
import * as repo from './repo.ts';

/** Adds credits to `targetId`: masters pay from their own balance, admins mint. Returns the target's new balance. */
export async function giveCredits(deps: Deps, trx: Tx, actor: AuthUser, targetId: number, amount: number, key?: string): Promise<number> {
  if (actor.type === 'admin') {
    return mint(trx, targetId, amount, { reason: 'admin_mint', actorId: actor.id, counterpartyId: actor.id, idempotencyKey: key });
  }
  const balances = await transfer(trx, deps.database.dialect, { fromId: actor.id, toId: targetId, amount, kind: 'transfer', actorId: actor.id, idempotencyKey: key });
  return balances.to;
}

/**
 * Signed credit change. Masters give from their own balance (positive only); admins mint
 * (positive) or burn (negative, floored at the target's balance).
 */
export async function changeCredits(deps: Deps, actor: AuthUser, id: number, value: number, idempotencyKey?: string): Promise<Outcome<unknown>> {
  requireManagerOf(actor);
  if (value === 0) throw validation('value', 'must not be 0');
  if (value < 0 && actor.type !== 'admin') throw validation('value', 'must be greater than 0');
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key: idempotencyKey, fingerprint: ['credits', id, value] }, 200, async (trx) => {
    const log = (value_int: number) =>
      writeLog(trx, { type_log: 'credits', action: value > 0 ? 'add_credits' : 'remove_credits', actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value_int });
    if (value > 0) {
      // giveCredits locks the rows (PostgreSQL) itself; the visibility check and the log row come
      // first so the locks are held for the balance statements only. The answer is the row read
      // here with its new balance (a second read cost every transfer ~0.1 ms of its 0.6).
      const target = await loadVisible(trx, actor, id);
      await log(value);
      return { ...target, credits: await giveCredits(deps, trx, actor, id, value, idempotencyKey) };
    }
    // A burn: lock first, as it is floored at the balance it reads.
    await lockResellers(trx, deps.database.dialect, [id]);
    const target = await loadVisible(trx, actor, id);
    const taken = Math.min(-value, target.credits);
    if (taken > 0) await burn(trx, id, taken, { reason: 'admin_burn', actorId: actor.id, counterpartyId: actor.id, idempotencyKey });
    await log(-taken);
    return (await repo.findVisible(trx, actor, id))!;
  });
  // PIX payments paid while this account was short of credits renew now (payments/apply.ts)
  if (value > 0) applyAwaitingSoon(deps, id);
  return outcome;
}
