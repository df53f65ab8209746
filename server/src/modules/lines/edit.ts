import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { assertBouquetIds } from '../bouquets/service.ts';
import { changeLine } from './line-change.ts';
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
