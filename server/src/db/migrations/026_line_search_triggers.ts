import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * SQLite: the line-search (FTS5) triggers index every line change again, unconditionally, as
 * migration 022 made them; the deferral table migration 025 added goes. Every write is one
 * transaction of its own, so there is no group left to index its lines itself. PostgreSQL: nothing.
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  if (dialect === 'postgres') return;
  const cols = 'username, reseller_notes, whatsapp';
  const add = `INSERT INTO lines_search(rowid, ${cols}) VALUES (new.id, new.username, new.reseller_notes, new.whatsapp);`;
  const drop = `INSERT INTO lines_search(lines_search, rowid, ${cols}) VALUES ('delete', old.id, old.username, old.reseller_notes, old.whatsapp);`;
  for (const name of ['lines_search_insert', 'lines_search_update', 'lines_search_delete']) await sql.raw(`DROP TRIGGER ${name}`).execute(db);
  await sql.raw(`CREATE TRIGGER lines_search_insert AFTER INSERT ON lines BEGIN ${add} END`).execute(db);
  await sql.raw(`CREATE TRIGGER lines_search_delete AFTER DELETE ON lines BEGIN ${drop} END`).execute(db);
  await sql.raw(`CREATE TRIGGER lines_search_update AFTER UPDATE OF ${cols} ON lines BEGIN ${drop} ${add} END`).execute(db);
  await sql`DROP TABLE line_search_deferral`.execute(db);
}
