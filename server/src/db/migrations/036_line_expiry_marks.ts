import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * What has been said about a line's expiry: one row per (line, expiry, kind) written in the same
 * transaction as the event it stands for, so each fires once per line and expiry (a renewal moves
 * the expiry and starts afresh). `scheduler_leases`: one process at a time runs a named scheduler.
 */
export async function up(db: Kysely<any>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('line_expiry_marks')
    .addColumn('line_id', 'integer', (c) => c.notNull().references('lines.id'))
    .addColumn('exp_date', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'varchar(30)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('line_expiry_marks_pk', ['line_id', 'exp_date', 'kind'])
    .execute();
  await db.schema
    .createTable('scheduler_leases')
    .addColumn('name', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(40)', (c) => c.notNull())
    .addColumn('until', 'bigint', (c) => c.notNull())
    .execute();
}
