import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { assertBouquetIds } from '../bouquets/service.ts';
import { endLineConnections } from '../connections/end.ts';
import { logChange, mutate } from './change.ts';
import { type LineChanges, updateLine } from './write-repo.ts';

export function update(deps: Deps, actor: AuthUser, id: number, input: { password?: string; whatsapp?: string; email?: string; opt_out_reminders?: boolean; reseller_notes?: string; bouquet?: string[] }) {
  return mutate(deps, actor, id, async (trx, line) => {
    const changes: LineChanges = {};
    if (input.password !== undefined && input.password.trim() !== '') changes.password = input.password.trim();
    if (input.whatsapp !== undefined) changes.whatsapp = input.whatsapp.trim() || null;
    if (input.email !== undefined) changes.email = input.email.trim() || null;
    if (input.opt_out_reminders !== undefined) changes.opt_out_reminders = input.opt_out_reminders ? 1 : 0;
    if (input.reseller_notes !== undefined) changes.reseller_notes = input.reseller_notes.trim() || null;
    if (input.bouquet !== undefined) changes.bouquet = JSON.stringify(await assertBouquetIds(trx, input.bouquet, 'bouquet'));
    if (Object.keys(changes).length > 0) await updateLine(trx, line.id, changes);
    await logChange(trx, actor, line, 'user_update', Object.keys(changes).join(','));
  });
}

export async function remove(deps: Deps, actor: AuthUser, id: number) {
  await mutate(deps, actor, id, async (trx, line) => {
    await updateLine(trx, line.id, { deleted_at: nowSec() });
    await endLineConnections(deps, trx, line.id);
    await logChange(trx, actor, line, 'user_delete');
  });
}

export function setEnabled(deps: Deps, actor: AuthUser, id: number, enabled: 0 | 1) {
  return mutate(
    deps,
    actor,
    id,
    async (trx, line) => {
      await updateLine(trx, line.id, { enabled });
      if (!enabled) await endLineConnections(deps, trx, line.id);
      await logChange(trx, actor, line, enabled ? 'user_unblock' : 'user_block');
    },
    undefined,
    undefined,
    enabled ? {} : { event: 'line.blocked' },
  );
}

export function changeSystem(deps: Deps, actor: AuthUser, id: number, system: number) {
  return mutate(deps, actor, id, async (trx, line) => {
    if (line.enabled !== 1) throw appError('LINE_BLOCKED');
    await updateLine(trx, line.id, { system });
    // the player API and edges serve HTTP/IPTV lines only (system 1)
    if (system !== 1) await endLineConnections(deps, trx, line.id);
    await logChange(trx, actor, line, 'user_change_system', String(system), system);
  });
}

/** Sends the line's current state to the P2P server again (P2P lines only). */
export function resyncP2p(deps: Deps, actor: AuthUser, id: number) {
  return mutate(
    deps,
    actor,
    id,
    async (trx, line) => {
      if (line.system === 1) throw appError('NOT_P2P');
      await logChange(trx, actor, line, 'user_resync_p2p');
    },
    undefined,
    undefined,
    { resync: true },
  );
}
