import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../../deps.ts';

const gzipped = promisify(gzip);

/** A list as the player API sends it, gzipped once for the players that accept it, and the ETag that names it. */
export interface BuiltList {
  body: string;
  gzip: Buffer;
  etag: string;
}

async function built(body: string, etag: string): Promise<BuiltList> {
  return { body, gzip: await gzipped(body), etag };
}

interface ListCache {
  lists: LRUCache<string, BuiltList>;
  /** lists being built: a morning's app launches asking at once build each list once */
  building: Map<string, Promise<BuiltList>>;
}

// One cache per database (a process serves one; the tests open many).
const caches = new WeakMap<object, ListCache>();

function cacheOf(deps: Deps): ListCache | undefined {
  const maxSize = deps.config.playerCacheMb * 1024 * 1024;
  if (maxSize <= 0) return undefined;
  let cache = caches.get(deps.database);
  if (!cache) {
    // Least recently used out past PLAYER_CACHE_MB; a list larger than that is built each time.
    cache = { lists: new LRUCache({ maxSize, sizeCalculation: (l) => l.body.length + l.gzip.length + l.etag.length }), building: new Map() };
    caches.set(deps.database, cache);
  }
  return cache;
}

/**
 * The list `what` names (an action, a category and a sorted bouquet set: never a line, the lists
 * hold no credentials) as of catalogue `version`: from memory when built under that version,
 * otherwise built once by `build`. The version moves with every change of the catalogue or a
 * bouquet (migration 031), so a change shows at the next request, in every process.
 */
export async function cachedList(deps: Deps, what: string, version: number, build: () => Promise<string>): Promise<BuiltList> {
  const key = `${version}|${what}`;
  const etag = `"${version}-${createHash('sha256').update(what).digest('base64url').slice(0, 16)}"`;
  const cache = cacheOf(deps);
  if (!cache) return built(await build(), etag);
  const kept = cache.lists.get(key);
  if (kept) return kept;
  let pending = cache.building.get(key);
  if (!pending) {
    pending = build()
      .then((body) => built(body, etag))
      .then((list) => {
        cache.lists.set(key, list);
        return list;
      })
      .finally(() => cache.building.delete(key));
    cache.building.set(key, pending);
  }
  return pending;
}

/** Whether an If-None-Match header names this ETag (a list of tags, or `*`; weak tags match too). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** Whether an Accept-Encoding header takes gzip (and does not refuse it with q=0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (name === 'gzip' || name === '*') && !(q && Number(q.slice(2)) === 0);
  });
}
