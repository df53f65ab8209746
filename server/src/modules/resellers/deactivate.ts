import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError, validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { revokeAllSessions } from '../auth/service.ts';
import { currentBalance, lockResellers, transfer } from '../credits/service.ts';
import { applyAwaitingSoon } from '../payments/service.ts';
import { invalidateFor } from '../dashboard/service.ts';
import { handOverLines } from '../lines/service.ts';
import { writeLog } from '../logs/service.ts';
import { handOverAccounts } from '../p2p/service.ts';
import { loadVisible } from './access.ts';
import * as repo from './repo.ts';
import { isBelow, moveChildren } from './tree-repo.ts';

/** Admin only: removes a reseller, handing its sub-resellers, lines and credits to `targetId`. */
export async function deactivate(deps: Deps, actor: AuthUser, id: number, targetId: number) {
  if (actor.type !== 'admin') throw appError('FORBIDDEN');
  if (targetId === id) throw validation('target_id', 'must be another reseller');
  const result = await withTx(deps.database, async (trx) => {
    const row = await loadVisible(trx, actor, id);
    const target = await repo.findVisible(trx, actor, targetId, true);
    if (!target) throw appError('NOT_FOUND', { params: { what: 'Target reseller' } });
    if (await isBelow(trx, targetId, id)) {
      throw validation('target_id', 'must not be below the reseller being removed');
    }
    if (row.sub_resellers_count > 0 && target.group_type === 'reseller') {
      throw validation('target_id', 'sub-resellers can only move to a master or an admin');
    }
    await lockResellers(trx, deps.database.dialect, [id, targetId]);
    await moveChildren(trx, id, targetId);
    await handOverLines(trx, id, targetId);
    await handOverAccounts(trx, id, targetId);

    const credits = await currentBalance(trx, id);
    if (credits > 0) await transfer(trx, deps.database.dialect, { fromId: id, toId: targetId, amount: credits, kind: 'deactivate', actorId: actor.id });
    await repo.markDeactivated(trx, id, nowSec());
    await revokeAllSessions(trx, id);
    await writeLog(trx, { type_log: 'reseller', action: 'reseller_deactivate', actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value: `transferall:${targetId}`, value_int: credits });
    await invalidateFor(trx, id); // last, as every change does (dashboard/repo.ts stampInvalidated)
    await invalidateFor(trx, targetId);
    return { id, target_id: targetId, credits_moved: credits, sub_resellers_moved: row.sub_resellers_count, clients_moved: row.clients_count };
  });
  // the target's PIX payments waiting for credits renew now (payments/apply.ts)
  if (result.credits_moved > 0) applyAwaitingSoon(deps, targetId);
  return result;
}
