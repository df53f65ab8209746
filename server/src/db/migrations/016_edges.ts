import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Streaming edges (docs/integrations.md, "Edges"): registered servers that ask `/gateway/auth` before
 * serving, and the connections they report. `line_activity` had no writer until now (migration 005
 * made it empty), so it is rebuilt with one row per connection: (line, stream, client IP, user
 * agent), refreshed by every allowed request, ended by a disconnect.
 */
export async function up(db: Kysely<any>, { id, bigId }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('servers')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('url', 'varchar(255)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('servers_key_hash').on('servers').column('key_hash').unique().execute();

  await db.schema.dropTable('line_activity').execute();
  await db.schema
    .createTable('line_activity')
    .addColumn('activity_id', bigId, (c) => c.primaryKey())
    .addColumn('line_id', 'integer', (c) => c.notNull().references('lines.id'))
    .addColumn('stream_id', 'integer', (c) => c.references('streams.id').onDelete('set null'))
    .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('set null'))
    .addColumn('user_ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(300)', (c) => c.notNull())
    .addColumn('date_start', 'bigint', (c) => c.notNull())
    .addColumn('last_seen', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .addColumn('banned_until', 'bigint')
    .execute();
  // The connection key: each allowed edge request finds (or creates) its row through it; its
  // line_id prefix also counts a line's open connections.
  await db.schema
    .createIndex('line_activity_connection')
    .on('line_activity')
    .columns(['line_id', 'stream_id', 'user_ip', 'user_agent'])
    .unique()
    .execute();
  // Online = recently seen: the dashboard, the online list and the pruning walk this.
  await db.schema.createIndex('line_activity_last_seen').on('line_activity').column('last_seen').execute();
}
