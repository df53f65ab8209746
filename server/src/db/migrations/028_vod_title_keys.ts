import { type Kysely, sql } from 'kysely';

/**
 * A content request asked by name has no catalogue id: it is known by its folded title instead
 * (`title_key`: trimmed, spaces collapsed, lower case), unique per media type, and its `movie_id`
 * is 0. The catalogue-id index keeps one request per title for searched ones (movie_id > 0).
 * Requests asked by name before this carried a negative id hashed from the title; they move over.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('vod_requests').addColumn('title_key', 'varchar(300)').execute();
  const byName = await db.selectFrom('vod_requests').select(['id', 'title']).where('movie_id', '<', 0).execute();
  for (const row of byName) {
    const key = String(row.title).trim().replace(/\s+/g, ' ').toLocaleLowerCase('pt-BR');
    await db.updateTable('vod_requests').set({ title_key: key, movie_id: 0 }).where('id', '=', row.id).execute();
  }
  await db.schema.dropIndex('vod_requests_title').execute();
  await db.schema.createIndex('vod_requests_title').on('vod_requests').columns(['movie_id', 'media_type']).unique().where(sql.ref('movie_id'), '>', 0).execute();
  await db.schema.createIndex('vod_requests_title_key').on('vod_requests').columns(['title_key', 'media_type']).unique().execute();
}
