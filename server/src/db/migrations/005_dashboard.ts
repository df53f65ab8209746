import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<any>, { bigId }: MigrationContext): Promise<void> {
  // Online connections, reported by streaming servers (a later feature); empty until then.
  await db.schema
    .createTable('line_activity')
    .addColumn('activity_id', bigId, (c) => c.primaryKey())
    .addColumn('line_id', 'integer', (c) => c.notNull().references('lines.id'))
    .addColumn('stream_name', 'varchar(200)')
    .addColumn('user_ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(300)')
    .addColumn('date_start', 'bigint', (c) => c.notNull())
    .addColumn('server', 'varchar(100)')
    .execute();
  await db.schema.createIndex('line_activity_line').on('line_activity').column('line_id').execute();
  // Covering index for the dashboard counters: one index-only pass per owner.
  await db.schema
    .createIndex('lines_member_counters')
    .on('lines')
    .columns(['member_id', 'deleted_at', 'is_trial', 'enabled', 'system', 'exp_date', 'created_at'])
    .execute();
  await db.schema.createIndex('credit_ledger_created').on('credit_ledger').columns(['created_at']).execute();
}
