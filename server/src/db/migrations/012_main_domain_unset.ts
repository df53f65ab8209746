import type { Kysely } from 'kysely';

/**
 * main_domain was seeded as http://localhost:3000, which sent every playlist and short link there
 * whatever address the panel runs at. Unset (empty), links use PUBLIC_URL or the request's origin;
 * a value an admin changed is kept.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('settings').set({ value: '' }).where('key', '=', 'main_domain').where('value', '=', 'http://localhost:3000').execute();
}
