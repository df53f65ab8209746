import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { emitLineEvent } from '../webhooks/emit.ts';
import { appError } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { chargeCaller } from '../credits/ledger.ts';
import { runIdempotent } from '../credits/idempotency.ts';
import { invalidateFor } from '../dashboard/cache.ts';
import { writeLog } from '../logs/write.ts';
import { kick, queueLineChange } from '../p2p/outbox.ts';
import * as repo from './repo.ts';
import { lockLine } from './write-repo.ts';

// What every change to an existing line goes through: load (locked), change, log, answer the fresh row.

/** Charges a non-admin caller for a line operation inside the caller's transaction. */
export const charge = (trx: Kysely<DB>, actor: AuthUser, amount: number, reason: string, lineId: number, key?: string) =>
  chargeCaller(trx, actor, amount, reason, { lineId }, key);

/** Loads a line for a change; on PostgreSQL its row is locked first so concurrent changes queue. */
export async function loadLineForChange(deps: Deps, trx: Kysely<DB>, actor: AuthUser, id: number) {
  await lockLine(trx, deps.database.dialect, id);
  const row = await repo.findVisibleLine(trx, actor, id);
  if (!row) throw appError('NOT_FOUND', { params: { what: 'User' } });
  return row;
}

/**
 * Runs `change` on one visible line in a transaction and returns the fresh row. What the P2P
 * server must learn of the change (a P2P line changed, entered or left system 2/3, was deleted;
 * everything with `resync`) is queued in the same transaction.
 */
export async function mutate(
  deps: Deps,
  actor: AuthUser,
  id: number,
  change: (trx: Kysely<DB>, line: repo.LineRow) => Promise<void>,
  key?: string,
  fingerprint?: unknown,
  opts: { resync?: boolean; event?: 'line.renewed' | 'line.blocked' } = {},
) {
  let queued = false;
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key, fingerprint: [id, fingerprint] }, 200, async (trx) => {
    const line = await loadLineForChange(deps, trx, actor, id);
    await change(trx, line);
    const after = await repo.findVisibleLine(trx, actor, id); // undefined once deleted
    queued = await queueLineChange(trx, line, after, opts.resync);
    const result = (queued && after ? await repo.findVisibleLine(trx, actor, id) : after)!;
    if (opts.event && result) await emitLineEvent(trx, line.member_id, opts.event, result);
    await invalidateFor(trx, line.member_id); // last: the admins' cache rows are shared by every change
    return result;
  });
  if (queued) kick();
  return outcome.body;
}

/** The action-log row of a change to `line`. */
export const logChange = (trx: Kysely<DB>, actor: AuthUser, line: repo.LineRow, action: string, value?: string | null, value_int?: number | null) =>
  writeLog(trx, { type_log: 'user', action, actor_id: actor.id, reseller_id: line.member_id, target_user: line.username, value: value ?? null, value_int: value_int ?? null });
