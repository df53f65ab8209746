import type { ExpressionBuilder } from 'kysely';
import type { Tx } from '../../db/tx.ts';
import type { CatalogueKind, DB, Line } from '../../db/types.ts';

// What players and edges read: a line by its credentials, and the catalogue its bouquets give
// (every stream of the bouquets' categories plus their single streams).

const PLAYER_LINE_COLUMNS = ['id', 'member_id', 'username', 'password', 'exp_date', 'created_at', 'enabled', 'is_trial', 'max_connections', 'bouquet', 'system', 'deleted_at'] as const;

/** What a player's request needs of its line. */
export type PlayerLine = Pick<Line, (typeof PLAYER_LINE_COLUMNS)[number]>;

export function findLineByUsername(db: Tx, username: string): Promise<PlayerLine | undefined> {
  return db.selectFrom('lines').select(PLAYER_LINE_COLUMNS).where('username', '=', username).executeTakeFirst();
}

type StreamScope = ExpressionBuilder<DB & { s: DB['streams'] }, 's'>;

/**
 * Streams the bouquets give: in one of their categories, or listed one by one. Two index probes
 * per stream (bouquet_items_category, bouquet_items_stream): cheap for the edge's one stream and
 * for a listing's walk alike.
 */
const entitled = (bouquets: number[]) => (eb: StreamScope) =>
  eb.or([
    eb.exists(eb.selectFrom('bouquet_items as bi').select('bi.bouquet_id').where('bi.bouquet_id', 'in', bouquets).whereRef('bi.category_id', '=', 's.category_id')),
    eb.exists(eb.selectFrom('bouquet_items as bi').select('bi.bouquet_id').where('bi.bouquet_id', 'in', bouquets).whereRef('bi.stream_id', '=', 's.id')),
  ]);

/** Categories of a kind that hold something the bouquets give. */
export function categoriesFor(db: Tx, bouquets: number[], kind: CatalogueKind) {
  const streamCategories = db
    .selectFrom('streams as s')
    .select('s.category_id')
    .where('s.id', 'in', db.selectFrom('bouquet_items').select('stream_id').where('bouquet_id', 'in', bouquets).where('stream_id', 'is not', null));
  return db
    .selectFrom('categories as c')
    .select(['c.id', 'c.name'])
    .where('c.kind', '=', kind)
    .where((eb) =>
      eb.or([
        eb('c.id', 'in', db.selectFrom('bouquet_items').select('category_id').where('bouquet_id', 'in', bouquets).where('category_id', 'is not', null)),
        eb('c.id', 'in', streamCategories),
      ]),
    )
    .orderBy('c.name')
    .orderBy('c.id')
    .execute();
}

export interface PlayerStream {
  id: number;
  kind: CatalogueKind;
  name: string;
  category_id: number;
  category_name: string;
  icon: string | null;
  added: number;
  container_ext: string;
  epg_id: string | null;
  rating: number | null;
  source_url: string;
}

const STREAM_COLUMNS = ['s.id', 's.kind', 's.name', 's.category_id', 'c.name as category_name', 's.icon', 's.added', 's.container_ext', 's.epg_id', 's.rating', 's.source_url'] as const;

/** The next `limit` streams of a kind after `afterId`, in id order (keyset batches of a listing). */
export function streamsAfter(db: Tx, bouquets: number[], kind: CatalogueKind, categoryId: number | undefined, afterId: number, limit: number): Promise<PlayerStream[]> {
  let q = db
    .selectFrom('streams as s')
    .innerJoin('categories as c', 'c.id', 's.category_id')
    .select(STREAM_COLUMNS)
    .where('s.kind', '=', kind)
    .where('s.id', '>', afterId)
    .where(entitled(bouquets));
  if (categoryId !== undefined) q = q.where('s.category_id', '=', categoryId);
  return q.orderBy('s.id').limit(limit).execute();
}

/** One stream, if the bouquets give it (and it is of `kind`, when given). */
export function streamFor(db: Tx, bouquets: number[], id: number, kind?: CatalogueKind): Promise<PlayerStream | undefined> {
  let q = db.selectFrom('streams as s').innerJoin('categories as c', 'c.id', 's.category_id').select(STREAM_COLUMNS).where('s.id', '=', id).where(entitled(bouquets));
  if (kind) q = q.where('s.kind', '=', kind);
  return q.executeTakeFirst();
}

/** The catalogue's version: it grows with every change of streams, categories and bouquets (migration 031). */
export async function catalogueVersion(db: Tx): Promise<number> {
  const row = await db.selectFrom('catalogue_version').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.version);
}
