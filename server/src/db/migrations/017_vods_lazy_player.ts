import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Content requests (a master asks for a movie or series to be added to the catalogue) and Lazy
 * Player activations (a line's playlist pushed to a TV app by MAC address, paid in credits).
 */
export async function up(db: Kysely<any>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('vod_requests')
    .addColumn('id', ctx.id, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('movie_id', 'integer', (c) => c.notNull())
    .addColumn('media_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('year', 'varchar(4)', (c) => c.notNull())
    .addColumn('stars', 'double precision', (c) => c.notNull())
    .addColumn('image_link', 'varchar(500)')
    .addColumn('notes', 'varchar(1000)', (c) => c.notNull())
    /** 1 pending, 2 added */
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // One request per title: a second master asking for it is told it exists.
  await db.schema.createIndex('vod_requests_title').on('vod_requests').columns(['movie_id', 'media_type']).unique().execute();
  await db.schema.createIndex('vod_requests_created').on('vod_requests').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('lazy_player_activations')
    .addColumn('id', ctx.id, (c) => c.primaryKey())
    .addColumn('line_id', 'integer', (c) => c.notNull().references('lines.id'))
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('mac', 'varchar(17)', (c) => c.notNull())
    .addColumn('charged', 'integer', (c) => c.notNull())
    /** pending (charged, service not answered yet), active, failed (refunded) */
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('error', 'varchar(300)')
    .addColumn('idempotency_key', 'varchar(200)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('lazy_player_activations_key')
    .on('lazy_player_activations')
    .columns(['reseller_id', 'idempotency_key'])
    .unique()
    .execute();
  await db.schema.createIndex('lazy_player_activations_line').on('lazy_player_activations').column('line_id').execute();

  await db
    .insertInto('settings')
    .values([
      { key: 'lazy_player_monthly_credits', value: '1' },
      { key: 'chat_group_url', value: '' },
      { key: 'manual_url', value: '' },
    ])
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}
