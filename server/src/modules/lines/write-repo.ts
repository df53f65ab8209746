import type { Dialect } from '../../db/connection.ts';
import type { Tx } from '../../db/tx.ts';
import type { Line } from '../../db/types.ts';
import { type LineRow, OWN_COLUMNS, toLineRow } from './repo.ts';

export type NewLine = Omit<Line, 'id' | 'deleted_at' | 'last_extended_at' | 'p2p_sync_state' | 'p2p_sync_error' | 'p2p_sync_version' | 'top_reseller_id' | 'email' | 'opt_out_reminders'> &
  Partial<Pick<Line, 'email' | 'opt_out_reminders'>>;

/**
 * Inserts a line unless its username is taken (undefined then: the unique key decides, so a
 * creation needs no lookup of its own before) and answers it as the lists show it, from the insert
 * itself (RETURNING) and its owner's username, without reading it back.
 */
export async function insertLine(db: Tx, values: NewLine, ownerUsername: string | null): Promise<LineRow | undefined> {
  const row = await db
    .insertInto('lines')
    .values(values)
    .onConflict((oc) => oc.column('username').doNothing())
    .returning(OWN_COLUMNS)
    .executeTakeFirst();
  return row && toLineRow({ ...(row as Omit<LineRow, 'bouquet' | 'master_username'> & { bouquet: string }), master_username: ownerUsername });
}

export type LineChanges = Partial<Pick<Line, 'password' | 'whatsapp' | 'email' | 'opt_out_reminders' | 'reseller_notes' | 'bouquet' | 'exp_date' | 'last_extended_at' | 'package_id' | 'is_trial' | 'max_connections' | 'enabled' | 'system' | 'deleted_at'>>;

export async function updateLine(db: Tx, id: number, changes: LineChanges): Promise<void> {
  await db.updateTable('lines').set(changes).where('id', '=', id).execute();
}

/** On PostgreSQL, locks a line's row so concurrent changes to it queue (SQLite serialises writers already). */
export async function lockLine(db: Tx, dialect: Dialect, id: number): Promise<void> {
  if (dialect === 'postgres') await db.selectFrom('lines').select('id').where('id', '=', id).forUpdate().execute();
}

/** Gives every line of `fromId` to `toId`. */
export async function moveLines(db: Tx, fromId: number, toId: number): Promise<void> {
  await db.updateTable('lines').set({ member_id: toId }).where('member_id', '=', fromId).execute();
}
