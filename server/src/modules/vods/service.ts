import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError, AppError } from '../../http/errors.ts';
import { type Order, parseOrder, cursorOf } from '../../http/paging.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { writeLog } from '../logs/service.ts';
import * as repo from './repo.ts';
import { isCatalogueConfigured, searchCatalogue } from './tmdb.ts';

export const PENDING = 1;
export const ADDED = 2;

/** The content-request lists' sorts (public name -> column); their `order_by` schema is built from the keys. */
export const ORDER_FIELDS = { id: 'v.id', title: 'v.title', year: 'v.year', stars: 'v.stars', status: 'v.status', created_at: 'v.created_at' };
const NEWEST: Order = { column: 'v.created_at', direction: 'desc' };

export function search(deps: Deps, query: string) {
  return searchCatalogue(deps.config, query).then((data) => ({ data }));
}

/** Whether the catalogue search can answer (a TMDB key is set); says nothing of TMDB being up. */
export function searchStatus(deps: Deps) {
  return { configured: isCatalogueConfigured(deps.config) };
}

export interface RequestInput {
  movie_id: number;
  media_type?: 'movie' | 'tv';
  title: string;
  year: string;
  stars: number;
  image_link?: string | null;
  observacoes?: string;
}

/** A master (or admin: the route's roles) asks for a title found in the catalogue search; one request per title, whoever asked first. */
export async function request(deps: Deps, actor: AuthUser, input: RequestInput, titleKey: string | null = null) {
  const mediaType = input.media_type ?? 'movie';
  const which = { movie_id: input.movie_id, title_key: titleKey };
  try {
    return await withTx(deps.database, async (trx) => {
      if (await repo.requestExists(trx, which, mediaType)) throw appError('VOD_REQUEST_EXISTS');
      const at = nowSec();
      const id = await repo.insertRequest(trx, {
        reseller_id: actor.id,
        movie_id: input.movie_id,
        media_type: mediaType,
        title: input.title.trim(),
        year: input.year,
        stars: input.stars,
        image_link: input.image_link ?? null,
        notes: input.observacoes?.trim() ?? '',
        status: PENDING,
        created_at: at,
        updated_at: at,
        title_key: titleKey,
      });
      await writeLog(trx, { type_log: 'vod', action: 'vod_request', actor_id: actor.id, reseller_id: actor.id, value: input.title.trim().slice(0, 200), value_int: input.movie_id });
      return (await repo.findRequest(trx, id))!;
    });
  } catch (err) {
    // Two masters asked for the same title at once: the unique index let one through.
    if (err instanceof AppError) throw err;
    if (await repo.requestExists(deps.database.db, which, mediaType)) throw appError('VOD_REQUEST_EXISTS');
    throw err;
  }
}

export interface ManualRequestInput {
  title: string;
  media_type?: 'movie' | 'tv';
  year?: string;
  observacoes?: string;
}

/**
 * A title typed by hand (the catalogue search is not configured, or does not know it). It has no
 * catalogue id (movie_id 0): it is known by its folded title (spaces and case), so the same title
 * asked twice is the same request (409 `VOD_REQUEST_EXISTS`), like a searched one.
 */
export function requestByHand(deps: Deps, actor: AuthUser, input: ManualRequestInput) {
  const title = input.title.trim().replace(/\s+/g, ' ');
  const key = title.toLocaleLowerCase('pt-BR');
  return request(deps, actor, { movie_id: 0, media_type: input.media_type, title, year: input.year ?? '', stars: 0, image_link: null, observacoes: input.observacoes }, key);
}

export function list({ database }: Deps, q: { search?: string; page?: number; per?: number; order_by?: string; after?: string; before?: string }) {
  return repo.pageRequests(database.db, { ...q, order: parseOrder(q.order_by, ORDER_FIELDS, NEWEST), cursor: cursorOf(q), withRequester: false });
}

export function adminList({ database }: Deps, q: { search?: string; status?: number; page?: number; per?: number; order_by?: string; after?: string; before?: string }) {
  return repo.pageRequests(database.db, { ...q, order: parseOrder(q.order_by, ORDER_FIELDS, NEWEST), cursor: cursorOf(q), withRequester: true });
}

/** Admin: pending <-> added, for one request or many. */
export async function setStatus(deps: Deps, actor: AuthUser, ids: number[], status: number) {
  return withTx(deps.database, async (trx) => {
    const changed = await repo.setStatus(trx, ids, status, nowSec());
    if (changed === 0) throw appError('NOT_FOUND', { params: { what: 'Request' } });
    await writeLog(trx, { type_log: 'vod', action: 'vod_status', actor_id: actor.id, reseller_id: actor.id, value: `${ids.join(',').slice(0, 180)} -> ${status}`, value_int: changed });
    return { changed };
  });
}

export async function updateOne(deps: Deps, actor: AuthUser, id: number, status: number) {
  await setStatus(deps, actor, [id], status);
  return (await repo.findRequest(deps.database.db, id))!;
}

export async function remove(deps: Deps, actor: AuthUser, ids: number[]) {
  return withTx(deps.database, async (trx) => {
    const removed = await repo.deleteRequests(trx, ids);
    if (removed === 0) throw appError('NOT_FOUND', { params: { what: 'Request' } });
    await writeLog(trx, { type_log: 'vod', action: 'vod_remove', actor_id: actor.id, reseller_id: actor.id, value: ids.join(',').slice(0, 200), value_int: removed });
    return { removed };
  });
}
