import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * SQLite: the line-search insert trigger stands aside while `line_search_deferral.deferred` is 1.
 * FTS5 writes the terms it holds to a new segment at every savepoint, and inside a transaction
 * every statement after an insert opens one, so each line created in a group of spends paid a
 * segment write and the merges it brings (~90 µs per creation at 1M lines, issue 13). A group that
 * creates lines sets the flag inside its own uncommitted transaction, indexes its new lines
 * together just before its COMMIT and sets the flag back (`modules/lines/search-repo.ts`); every
 * other writer (another connection, the seeds, the sqlite3 shell) sees 0 and is indexed by the
 * trigger as before. PostgreSQL's trigram indexes are ordinary GIN indexes: nothing to do.
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  if (dialect === 'postgres') return;
  await sql`CREATE TABLE line_search_deferral (deferred integer NOT NULL CHECK (deferred IN (0, 1)))`.execute(db);
  await sql`INSERT INTO line_search_deferral (deferred) VALUES (0)`.execute(db);
  await sql`DROP TRIGGER lines_search_insert`.execute(db);
  await sql.raw(
    `CREATE TRIGGER lines_search_insert AFTER INSERT ON lines WHEN (SELECT deferred FROM line_search_deferral) = 0
     BEGIN INSERT INTO lines_search(rowid, username, reseller_notes, whatsapp) VALUES (new.id, new.username, new.reseller_notes, new.whatsapp); END`,
  ).execute(db);
}
