import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * SQLite: the line-search triggers stand aside for the lines a group of spends is about to index
 * itself. FTS5 writes the terms it holds to a new segment at every savepoint, and inside a
 * transaction every statement after an insert opens one, so each line created in a group paid a
 * segment write and the merges it brings (~90 µs per creation at 1M lines).
 *
 * `line_search_deferral.deferred_from` (one row) is NULL except inside a group that creates lines:
 * its first creation sets it to the next line id, uncommitted, so every line created after it in
 * the group has an id at or above it; just before the COMMIT the group indexes those lines, as they
 * are then, and sets it back to NULL (`modules/lines/search-repo.ts`). Meanwhile the insert trigger
 * skips, and the update and delete triggers skip such lines too (their terms are not in the index
 * yet; the group's own insert reads their final values). Every other writer (another connection,
 * the seeds, the sqlite3 shell) sees NULL and keeps the triggers as before; a missing row reads as
 * NULL too. PostgreSQL's trigram indexes are ordinary GIN indexes: nothing to do.
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  if (dialect === 'postgres') return;
  await sql`CREATE TABLE line_search_deferral (deferred_from integer)`.execute(db);
  await sql`INSERT INTO line_search_deferral (deferred_from) VALUES (NULL)`.execute(db);
  const cols = 'username, reseller_notes, whatsapp';
  const add = `INSERT INTO lines_search(rowid, ${cols}) VALUES (new.id, new.username, new.reseller_notes, new.whatsapp);`;
  const drop = `INSERT INTO lines_search(lines_search, rowid, ${cols}) VALUES ('delete', old.id, old.username, old.reseller_notes, old.whatsapp);`;
  const from = '(SELECT deferred_from FROM line_search_deferral)';
  const indexed = `coalesce(old.id < ${from}, 1)`; // not a line its group will index itself
  for (const name of ['lines_search_insert', 'lines_search_update', 'lines_search_delete']) await sql.raw(`DROP TRIGGER ${name}`).execute(db);
  await sql.raw(`CREATE TRIGGER lines_search_insert AFTER INSERT ON lines WHEN ${from} IS NULL BEGIN ${add} END`).execute(db);
  await sql.raw(`CREATE TRIGGER lines_search_update AFTER UPDATE OF ${cols} ON lines WHEN ${indexed} BEGIN ${drop} ${add} END`).execute(db);
  await sql.raw(`CREATE TRIGGER lines_search_delete AFTER DELETE ON lines WHEN ${indexed} BEGIN ${drop} END`).execute(db);
}
