import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { type Tx, beforeGroupCommit } from '../../db/tx.ts';
import type { DB } from '../../db/types.ts';

/**
 * The lines a SQLite group creates go into the search index (FTS5) together, once, before the
 * group's COMMIT, instead of one by one from the insert trigger: FTS5 writes the terms it holds to
 * a new segment at every savepoint, and every statement after an insert opens one, so each
 * creation paid a segment write and its merges (migration 025). Call before inserting the line;
 * outside a SQLite group (or on PostgreSQL) it does nothing and the trigger indexes the line.
 *
 * The first creation of a group sets `line_search_deferral.deferred_from` to the next line id,
 * inside the group's own uncommitted transaction; the work before the COMMIT indexes the lines
 * from that id on (only the group writes meanwhile) as they are then and sets it back to NULL, so
 * no other writer ever sees it set. Until then the triggers leave the group's new lines alone, an
 * edit of one in the same group included. If the
 * operation that set it is undone, the setting and its work go with it and the next creation
 * starts both again.
 */
export async function deferLineSearch(db: Tx): Promise<void> {
  // PostgreSQL's GIN index takes new terms into its pending list: nothing to defer there.
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  if (beforeGroupCommit(db, 'line-search', indexDeferredLines) === 'first') {
    await sql`UPDATE line_search_deferral SET deferred_from = (SELECT coalesce(max(id), 0) + 1 FROM lines)`.execute(db);
  }
}

async function indexDeferredLines(trx: Kysely<DB>): Promise<void> {
  await sql`INSERT INTO lines_search (rowid, username, reseller_notes, whatsapp)
    SELECT id, username, reseller_notes, whatsapp FROM lines WHERE id >= (SELECT deferred_from FROM line_search_deferral)`.execute(trx);
  await sql`UPDATE line_search_deferral SET deferred_from = NULL`.execute(trx);
}
