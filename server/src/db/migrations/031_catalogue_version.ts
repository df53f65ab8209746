import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/** The tables whose rows make up what a bouquet set gives a player. */
const CATALOGUE_TABLES = ['streams', 'categories', 'bouquets', 'bouquet_items'] as const;

/**
 * One number that grows with every change of the catalogue or of a bouquet, in the changing
 * transaction itself (triggers: no write path can forget it). The player API keeps the lists it
 * built under this number and builds them again once it has moved (modules/player/list-cache.ts).
 * PostgreSQL bumps it once per statement; SQLite, which has only row triggers, once per row.
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  await sql`CREATE TABLE catalogue_version (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)`.execute(db);
  await sql`INSERT INTO catalogue_version (id, version) VALUES (1, 1)`.execute(db);
  const bump = 'UPDATE catalogue_version SET version = version + 1 WHERE id = 1';
  if (dialect === 'postgres') {
    await sql.raw(`CREATE FUNCTION bump_catalogue_version() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${bump}; RETURN NULL; END $$`).execute(db);
    for (const table of CATALOGUE_TABLES) {
      await sql.raw(`CREATE TRIGGER ${table}_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version()`).execute(db);
    }
    return;
  }
  for (const table of CATALOGUE_TABLES) {
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      await sql.raw(`CREATE TRIGGER ${table}_catalogue_version_${event.toLowerCase()} AFTER ${event} ON ${table} BEGIN ${bump}; END`).execute(db);
    }
  }
}
