import type { CatalogueKind } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { type Order, parseOrder, cursorOf } from '../../http/paging.ts';
import * as repo from './repo.ts';
import { STREAM_ORDER_FIELDS as ORDER_FIELDS } from './schemas.ts';

export { bodyEntryCounter, importCatalogue, takeImportSlot } from './import.ts';
export { parseJsonOffThread } from './m3u.ts';

const DEFAULT_ORDER: Order = { column: 's.id', direction: 'asc' };
const n = (v: unknown) => Number(v ?? 0);

export async function categories({ database }: Deps, kind?: CatalogueKind) {
  const rows = await repo.listCategories(database.db, kind);
  return { data: rows.map((r) => ({ ...r, streams_count: n(r.streams_count) })) };
}

export async function streams({ database }: Deps, query: Omit<repo.StreamFilters, 'ids'> & { ids?: string; page?: number; per?: number; order_by?: string; after?: string; before?: string }) {
  const q = { ...query, ids: query.ids?.split(',').map(Number) };
  const res = await repo.pageStreams(database.db, q, { page: q.page, per: q.per, order: parseOrder(q.order_by, ORDER_FIELDS, DEFAULT_ORDER), cursor: cursorOf(query) });
  return { ...res, data: res.data.map((r) => ({ ...r, added: n(r.added), rating: r.rating === null ? null : Number(r.rating) })) };
}

/** The dashboard's latest content: the 10 newest movies or series (name, added, stream_icon or cover). */
export async function latest({ database }: Deps, type: 'movie' | 'series') {
  const rows = await repo.latest(database.db, type, 10);
  return {
    data: rows.map((r) => ({
      id: r.id,
      name: r.name,
      added: n(r.added),
      category_name: r.category_name,
      stream_icon: type === 'movie' ? r.icon : null,
      cover: type === 'series' ? r.icon : null,
    })),
  };
}
