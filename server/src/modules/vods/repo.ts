import { sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';
import type { VodRequestsTable } from '../../db/types.ts';
import { escapeLike } from '../../repos/scope-repo.ts';
import { type Order, type PageCursor, paginate } from '../../db/paginate.ts';

export type NewVodRequest = Omit<VodRequestsTable, 'id'>;

const PUBLIC_COLUMNS = ['v.id', 'v.movie_id', 'v.media_type', 'v.title', 'v.year', 'v.stars', 'v.image_link', 'v.status', 'v.created_at', 'v.updated_at'] as const;

export async function insertRequest(db: Tx, row: NewVodRequest): Promise<number> {
  const { id } = await db.insertInto('vod_requests').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export function findRequest(db: Tx, id: number) {
  return db.selectFrom('vod_requests as v').select(PUBLIC_COLUMNS).where('v.id', '=', id).executeTakeFirst();
}

/** The request for this title: by catalogue id, or by folded title for one asked by name. */
export function requestExists(db: Tx, title: { movie_id: number; title_key: string | null }, mediaType: 'movie' | 'tv') {
  const same = db.selectFrom('vod_requests').select('id').where('media_type', '=', mediaType);
  return (title.title_key === null ? same.where('movie_id', '=', title.movie_id) : same.where('title_key', '=', title.title_key)).executeTakeFirst();
}

/** Requests, newest first by default; `search` matches the title. `withRequester` adds who asked and the notes (admin list). */
export function pageRequests(db: Tx, opts: { search?: string; status?: number; page?: number; per?: number; order: Order; cursor?: PageCursor; withRequester: boolean }) {
  let base = db.selectFrom('vod_requests as v');
  // A few thousand requests at most: a scan is fine (lower() folds ASCII on SQLite, everything on PostgreSQL).
  if (opts.search) base = base.where(sql`lower(v.title)`, 'like', sql`${`%${escapeLike(opts.search.toLowerCase())}%`} escape '\\'`);
  if (opts.status !== undefined) base = base.where('v.status', '=', opts.status);
  return paginate(
    base,
    (q) =>
      opts.withRequester
        ? q.leftJoin('resellers as r', 'r.id', 'v.reseller_id').select([...PUBLIC_COLUMNS, 'v.notes', 'r.username as requested_by'])
        : q.select(PUBLIC_COLUMNS),
    { db, page: opts.page, per: opts.per, order: opts.order, cursor: opts.cursor, tiebreak: 'v.id' },
  );
}

/** Sets the status of these requests; answers how many changed. */
export async function setStatus(db: Tx, ids: number[], status: number, at: number): Promise<number> {
  const res = await db.updateTable('vod_requests').set({ status, updated_at: at }).where('id', 'in', ids).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function deleteRequests(db: Tx, ids: number[]): Promise<number> {
  const res = await db.deleteFrom('vod_requests').where('id', 'in', ids).executeTakeFirst();
  return Number(res.numDeletedRows);
}
