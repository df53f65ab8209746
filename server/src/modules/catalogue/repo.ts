import { sql } from 'kysely';
import { escapeLike } from '../../repos/scope-repo.ts';
import type { Database } from '../../db/connection.ts';
import type { Tx } from '../../db/tx.ts';
import type { CatalogueKind } from '../../db/types.ts';
import { type Order, type PageCursor, paginate } from '../../db/paginate.ts';

/** Rows per statement of an import: well under both engines' bound-parameter limits. */
const CHUNK = 500;

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Runs `fn` while this process holds the catalogue import's lock; `{ ok: false }` at once when
 * another holds it. PostgreSQL (several server processes with WORKERS): a transaction-level
 * advisory lock, held by a transaction of its own that stays open while `fn` runs (its work goes
 * through other connections); it ends with that transaction, even if the process dies. SQLite has
 * one server process, whose own guard (import.ts) is the lock.
 */
export async function whileImportLocked<T>(database: Database, fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  if (database.dialect !== 'postgres') return { ok: true, value: await fn() };
  return database.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtext('catalogue_import')) as locked`.execute(trx);
    if (!rows[0]?.locked) return { ok: false } as const;
    return { ok: true, value: await fn() } as const;
  });
}

export function listCategories(db: Tx, kind?: CatalogueKind) {
  let q = db
    .selectFrom('categories as c')
    .select(['c.id', 'c.kind', 'c.name', (eb) => eb.selectFrom('streams as s').select(sql<number>`count(*)`.as('n')).whereRef('s.category_id', '=', 'c.id').as('streams_count')]);
  if (kind) q = q.where('c.kind', '=', kind);
  return q.orderBy('c.kind').orderBy('c.name').execute();
}

/** Adds the categories that do not exist yet (a concurrent import may add the same: nothing happens twice). */
export async function addCategories(db: Tx, rows: { kind: CatalogueKind; name: string }[], now: number): Promise<number> {
  let added = 0;
  for (const part of chunks(rows)) {
    const res = await db
      .insertInto('categories')
      .values(part.map((r) => ({ ...r, created_at: now })))
      .onConflict((oc) => oc.columns(['kind', 'name']).doNothing())
      .executeTakeFirst();
    added += Number(res.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

export async function categoryIds(db: Tx, kind: CatalogueKind, names: string[]): Promise<{ id: number; name: string }[]> {
  const out: { id: number; name: string }[] = [];
  for (const part of chunks(names)) out.push(...(await db.selectFrom('categories').select(['id', 'name']).where('kind', '=', kind).where('name', 'in', part).execute()));
  return out;
}

export interface StoredStream {
  id: number;
  source_url: string;
  kind: CatalogueKind;
  name: string;
  category_id: number;
  icon: string | null;
  epg_id: string | null;
  container_ext: string;
}

export async function streamsBySource(db: Tx, urls: string[]): Promise<StoredStream[]> {
  const out: StoredStream[] = [];
  for (const part of chunks(urls)) {
    out.push(
      ...(await db
        .selectFrom('streams')
        .select(['id', 'source_url', 'kind', 'name', 'category_id', 'icon', 'epg_id', 'container_ext'])
        .where('source_url', 'in', part)
        .execute()),
    );
  }
  return out;
}

export type StreamValues = Omit<StoredStream, 'id'> & { added: number };

/** Inserts new streams and rewrites changed ones, keyed by source URL; `added` stays the first import's. */
export async function upsertStreams(db: Tx, rows: StreamValues[]): Promise<void> {
  for (const part of chunks(rows)) {
    await db
      .insertInto('streams')
      .values(part)
      .onConflict((oc) =>
        oc.column('source_url').doUpdateSet((eb) => ({
          kind: eb.ref('excluded.kind'),
          name: eb.ref('excluded.name'),
          category_id: eb.ref('excluded.category_id'),
          icon: eb.ref('excluded.icon'),
          epg_id: eb.ref('excluded.epg_id'),
          container_ext: eb.ref('excluded.container_ext'),
        })),
      )
      .execute();
  }
}

export interface StreamFilters {
  kind?: CatalogueKind;
  category_id?: number;
  search?: string;
  ids?: number[];
}

export interface StreamRow extends StoredStream {
  category_name: string;
  added: number;
  rating: number | null;
}

export function pageStreams(db: Tx, f: StreamFilters, paging: { page?: number; per?: number; order: Order; cursor?: PageCursor }) {
  let q = db.selectFrom('streams as s');
  if (f.kind) q = q.where('s.kind', '=', f.kind);
  if (f.category_id !== undefined) q = q.where('s.category_id', '=', f.category_id);
  if (f.ids) q = q.where('s.id', 'in', f.ids.length ? f.ids : [0]);
  if (f.search) q = q.where(sql`lower(s.name)`, 'like', sql`${`%${escapeLike(f.search.toLowerCase())}%`} escape '\\'`);
  return paginate<StreamRow>(
    q,
    (b) =>
      (b as typeof q)
        .innerJoin('categories as c', 'c.id', 's.category_id')
        .select(['s.id', 's.kind', 's.name', 's.category_id', 'c.name as category_name', 's.icon', 's.added', 's.container_ext', 's.source_url', 's.epg_id', 's.rating']) as never,
    { ...paging, db, tiebreak: 's.id' },
  );
}

/** The newest entries of a kind (the dashboard's latest content), by first import. */
export function latest(db: Tx, kind: CatalogueKind, limit: number) {
  return db
    .selectFrom('streams as s')
    .innerJoin('categories as c', 'c.id', 's.category_id')
    .select(['s.id', 's.name', 's.added', 's.icon', 'c.name as category_name'])
    .where('s.kind', '=', kind)
    .orderBy('s.added', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .execute();
}
