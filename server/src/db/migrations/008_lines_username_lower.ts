import { type Kysely, sql } from 'kysely';

/** Case-insensitive username prefix search as an index range (see lines/repo.ts `filtered`). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('lines_username_lower').on('lines').expression(sql`lower(username)`).execute();
}
