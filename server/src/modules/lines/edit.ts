import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { assertBouquetIds } from '../bouquets/service.ts';
import type { Tx } from '../../db/tx.ts';
import { applyLineChange, changeLine, loadLineForChange } from './line-change.ts';
import type { LineChanges } from './write-repo.ts';

// Changes of a line's details, its deletion, blocking and system. What each implies (connections
// ended, P2P outbox, log, event, dashboard) is applyLineChange's (line-change.ts).

export function update(deps: Deps, actor: AuthUser, id: number, input: { password?: string; whatsapp?: string; email?: string; opt_out_reminders?: boolean; reseller_notes?: string; bouquet?: string[] }) {
  return changeLine(deps, actor, id, async (trx) => {
    const set: LineChanges = {};
    if (input.password !== undefined && input.password.trim() !== '') set.password = input.password.trim();
    if (input.whatsapp !== undefined) set.whatsapp = input.whatsapp.trim() || null;
    if (input.email !== undefined) set.email = input.email.trim() || null;
    if (input.opt_out_reminders !== undefined) set.opt_out_reminders = input.opt_out_reminders ? 1 : 0;
    if (input.reseller_notes !== undefined) set.reseller_notes = input.reseller_notes.trim() || null;
    if (input.bouquet !== undefined) set.bouquet = JSON.stringify(await assertBouquetIds(trx, input.bouquet, 'bouquet'));
    return { set, log: { action: 'user_update', value: Object.keys(set).join(',') } };
  });
}

export async function remove(deps: Deps, actor: AuthUser, id: number) {
  await changeLine(deps, actor, id, async () => ({ set: { deleted_at: nowSec() }, log: { action: 'user_delete' } }));
}

/**
 * Undoes a line's creation in the caller's transaction (a self-service trial whose message could not
 * be sent): the line is deleted as a removal deletes it, what its creation charged is refunded, and
 * the reports stop counting it as created. `actor` is the one that created it.
 */
export async function undoCreation(deps: Deps, trx: Tx, actor: AuthUser, id: number, charged: number, why: string) {
  const line = await loadLineForChange(deps, trx, actor, id);
  await applyLineChange(deps, trx, actor, {
    line,
    set: { deleted_at: nowSec() },
    refund: charged > 0 ? { amount: charged, reason: 'line_create_undo' } : undefined,
    log: { action: 'user_create_undo', value: why.slice(0, 250) },
    undoesCreation: true,
  });
}

export function setEnabled(deps: Deps, actor: AuthUser, id: number, enabled: 0 | 1) {
  return changeLine(deps, actor, id, async () =>
    enabled ? { set: { enabled }, log: { action: 'user_unblock' } } : { set: { enabled }, log: { action: 'user_block' }, event: 'line.blocked' },
  );
}

export function changeSystem(deps: Deps, actor: AuthUser, id: number, system: number) {
  return changeLine(deps, actor, id, async (_trx, line) => {
    if (line.enabled !== 1) throw appError('LINE_BLOCKED');
    return { set: { system }, log: { action: 'user_change_system', value: String(system), value_int: system } };
  });
}

/** Sends the line's current state to the P2P server again (P2P lines only). */
export function resyncP2p(deps: Deps, actor: AuthUser, id: number) {
  return changeLine(deps, actor, id, async (_trx, line) => {
    if (line.system === 1) throw appError('NOT_P2P');
    return { log: { action: 'user_resync_p2p' }, resync: true };
  });
}
