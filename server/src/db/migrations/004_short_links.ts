import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<any>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('short_links')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('code', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('target', 'varchar(1000)', (c) => c.notNull())
    .addColumn('line_id', 'integer', (c) => c.notNull().references('lines.id'))
    .addColumn('type', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('short_links_line').on('short_links').column('line_id').execute();
  // The expirations list and the trial-per-day count.
  await db.schema.createIndex('lines_member_trial_created').on('lines').columns(['member_id', 'is_trial', 'created_at']).execute();
}
