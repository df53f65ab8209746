import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * The catalogue lines may watch (docs/integrations.md, "Player API and playlists"): categories and streams of three kinds,
 * and what each bouquet holds (whole categories and/or single streams). Re-imports find a stream by
 * its source URL, so that column is unique.
 */
export async function up(db: Kysely<any>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('categories')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('categories_kind', sql`kind IN ('live', 'movie', 'series')`)
    .execute();
  // One category per kind and name: what an import looks up, and the admin list's order.
  await db.schema.createIndex('categories_kind_name').on('categories').columns(['kind', 'name']).unique().execute();

  await db.schema
    .createTable('streams')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('name', 'varchar(300)', (c) => c.notNull())
    .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id'))
    .addColumn('icon', 'varchar(1000)')
    .addColumn('added', 'bigint', (c) => c.notNull())
    .addColumn('container_ext', 'varchar(10)', (c) => c.notNull())
    .addColumn('source_url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('epg_id', 'varchar(200)')
    .addColumn('rating', 'real')
    .addCheckConstraint('streams_kind', sql`kind IN ('live', 'movie', 'series')`)
    .execute();
  await db.schema.createIndex('streams_source_url').on('streams').column('source_url').unique().execute();
  // Player listings walk one kind in id order, per category or whole bouquets.
  await db.schema.createIndex('streams_kind_category').on('streams').columns(['kind', 'category_id', 'id']).execute();
  await db.schema.createIndex('streams_category').on('streams').columns(['category_id', 'id']).execute();
  // The dashboard's newest movies and series.
  await db.schema.createIndex('streams_kind_added').on('streams').columns(['kind', 'added']).execute();

  await db.schema
    .createTable('bouquet_items')
    .addColumn('bouquet_id', 'integer', (c) => c.notNull().references('bouquets.id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('cascade'))
    .addColumn('stream_id', 'integer', (c) => c.references('streams.id').onDelete('cascade'))
    .addCheckConstraint('bouquet_items_one', sql`(category_id IS NULL) <> (stream_id IS NULL)`)
    .execute();
  // NULLs are distinct in unique indexes on both engines: a category row never collides with a stream row.
  await db.schema.createIndex('bouquet_items_category').on('bouquet_items').columns(['bouquet_id', 'category_id']).unique().execute();
  await db.schema.createIndex('bouquet_items_stream').on('bouquet_items').columns(['bouquet_id', 'stream_id']).unique().execute();
  await db.schema.createIndex('bouquet_items_by_category').on('bouquet_items').column('category_id').execute();
  await db.schema.createIndex('bouquet_items_by_stream').on('bouquet_items').column('stream_id').execute();
}
