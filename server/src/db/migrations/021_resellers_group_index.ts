import type { Kysely } from 'kysely';

/**
 * resellers(member_group_id): every change to a line stamps the dashboard cache of the admins
 * (resellers in a group of type admin) inside its transaction; without this index that lookup read
 * every reseller (10,000 at the bench's scale) on every line creation and change.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('resellers_group').on('resellers').column('member_group_id').execute();
}

