import { type Kysely, sql } from 'kysely';
import { type Tx, gatherBeforeCommit } from '../../db/tx.ts';
import type { DB } from '../../db/types.ts';

/**
 * The lines a SQLite group creates go into the search index (FTS5) together, once, before the
 * group's COMMIT, instead of one by one from the insert trigger: FTS5 writes the terms it holds to
 * a new segment at every savepoint, and every statement after an insert opens one, so each
 * creation paid a segment write and its merges (migration 025). Call before inserting the line;
 * add its id to the list returned. `undefined` outside a SQLite group: the trigger indexes it.
 *
 * The first creation of a group sets `line_search_deferral.deferred_from` to the next line id,
 * inside the group's own uncommitted transaction; the work before the COMMIT indexes the lines as
 * they are then and sets it back to NULL, so no other writer ever sees it set. Until then the
 * triggers leave the group's new lines alone, an edit of one in the same group included. If the
 * operation that set it is undone, the setting and the list go with it and the next creation
 * starts both again.
 */
export async function deferLineSearch(db: Tx): Promise<number[] | undefined> {
  const gathered = gatherBeforeCommit<number>(db, 'line-search', indexLines);
  if (!gathered) return undefined;
  if (gathered.first) await sql`UPDATE line_search_deferral SET deferred_from = (SELECT coalesce(max(id), 0) + 1 FROM lines)`.execute(db);
  return gathered.items;
}

async function indexLines(trx: Kysely<DB>, ids: number[]): Promise<void> {
  if (ids.length > 0) {
    await sql`INSERT INTO lines_search (rowid, username, reseller_notes, whatsapp)
      SELECT id, username, reseller_notes, whatsapp FROM lines WHERE id IN (${sql.join(ids)})`.execute(trx);
  }
  await sql`UPDATE line_search_deferral SET deferred_from = NULL`.execute(trx);
}
