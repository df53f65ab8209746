import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Trigram indexes for the user list's free-text search (username, notes, WhatsApp; `%term%`).
 * Without them a term that matches few lines read every line of the caller's scope: 0.4-2.6 s at
 * 1M lines. The list keeps its LIKE conditions as the final test, so these indexes only
 * narrow the candidates and the results are exactly those of the LIKE.
 *
 * - SQLite: an FTS5 table with the trigram tokenizer over the three columns, external content
 *   (the text stays only in `lines`), kept by triggers inside the writing transaction.
 * - PostgreSQL: pg_trgm GIN indexes on the three expressions the list compares (a trusted
 *   extension since PostgreSQL 13, shipped with the server's contrib); the planner reads the
 *   columns' statistics to choose them for a rare term and the id walk for a common one.
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  if (dialect === 'postgres') {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX lines_username_trgm ON lines USING gin (lower(username) gin_trgm_ops) WHERE deleted_at IS NULL`.execute(db);
    await sql`CREATE INDEX lines_notes_trgm ON lines USING gin (lower(reseller_notes) gin_trgm_ops) WHERE deleted_at IS NULL`.execute(db);
    await sql`CREATE INDEX lines_whatsapp_trgm ON lines USING gin (whatsapp gin_trgm_ops) WHERE deleted_at IS NULL`.execute(db);
    return;
  }
  const cols = 'username, reseller_notes, whatsapp';
  await sql.raw(`CREATE VIRTUAL TABLE lines_search USING fts5(${cols}, content='lines', content_rowid='id', tokenize='trigram')`).execute(db);
  await sql.raw(`INSERT INTO lines_search(lines_search) VALUES ('rebuild')`).execute(db);
  const add = `INSERT INTO lines_search(rowid, ${cols}) VALUES (new.id, new.username, new.reseller_notes, new.whatsapp);`;
  const drop = `INSERT INTO lines_search(lines_search, rowid, ${cols}) VALUES ('delete', old.id, old.username, old.reseller_notes, old.whatsapp);`;
  await sql.raw(`CREATE TRIGGER lines_search_insert AFTER INSERT ON lines BEGIN ${add} END`).execute(db);
  await sql.raw(`CREATE TRIGGER lines_search_delete AFTER DELETE ON lines BEGIN ${drop} END`).execute(db);
  await sql.raw(`CREATE TRIGGER lines_search_update AFTER UPDATE OF ${cols} ON lines BEGIN ${drop} ${add} END`).execute(db);
}
