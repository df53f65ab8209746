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
 * The first creation of a group sets `line_search_deferral.deferred` inside the group's own
 * uncommitted transaction, and the work before the COMMIT sets it back, so no other writer ever
 * sees it set. If the operation that set it is undone, the flag and its list go with it and the
 * next creation starts both again. A line created in a group is not changed in the same group
 * (its id reaches the caller only after the COMMIT), so the update and delete triggers, which
 * take a line's terms out, never meet one not indexed yet.
 */
export async function deferLineSearch(db: Tx): Promise<number[] | undefined> {
  const gathered = gatherBeforeCommit<number>(db, 'line-search', indexLines);
  if (!gathered) return undefined;
  if (gathered.first) await sql`UPDATE line_search_deferral SET deferred = 1`.execute(db);
  return gathered.items;
}

async function indexLines(trx: Kysely<DB>, ids: number[]): Promise<void> {
  if (ids.length > 0) {
    await sql`INSERT INTO lines_search (rowid, username, reseller_notes, whatsapp)
      SELECT id, username, reseller_notes, whatsapp FROM lines WHERE id IN (${sql.join(ids)})`.execute(trx);
  }
  await sql`UPDATE line_search_deferral SET deferred = 0`.execute(trx);
}
