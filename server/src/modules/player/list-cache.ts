import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../../deps.ts';

const gzipped = promisify(gzip);

/** A list as the player API sends it, gzipped once for the players that accept it, and the ETag that names its text. */
export interface BuiltList {
  body: string;
  /** empty for a text kept uncompressed (a playlist template: each line's copy differs) */
  gzip: Buffer;
  etag: string;
}

/** What keeping an entry costs beside its texts: the key, the objects, the cache's own records. */
const ENTRY_OVERHEAD = 1024;
/** However small the lists (one per category id a player may ask for), no more entries than this. */
const MAX_ENTRIES = 10_000;

interface ListCache {
  lists: LRUCache<string, BuiltList>;
  /** lists being built: a morning's app launches asking at once build each list once */
  building: Map<string, Promise<BuiltList>>;
}

// One cache per database (a process serves one; the tests open many).
const caches = new WeakMap<object, ListCache>();

/** The database's list cache, or nothing when PLAYER_CACHE_MB is 0 (the lists are then streamed as built). */
export function listCacheOf(deps: Deps): ListCache | undefined {
  const maxSize = deps.config.playerCacheMb * 1024 * 1024;
  if (maxSize <= 0) return undefined;
  let cache = caches.get(deps.database);
  if (!cache) {
    // Least recently used out past PLAYER_CACHE_MB; a list larger than that is built each time.
    const sizeCalculation = (l: BuiltList, key: string) => Buffer.byteLength(l.body) + l.gzip.length + key.length + ENTRY_OVERHEAD;
    cache = { lists: new LRUCache({ maxSize, max: MAX_ENTRIES, sizeCalculation }), building: new Map() };
    caches.set(deps.database, cache);
  }
  return cache;
}

async function built(body: string, compress: boolean): Promise<BuiltList> {
  // The ETag names the text itself: a version number could name other content after a restore.
  return { body, gzip: compress ? await gzipped(body) : Buffer.alloc(0), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

/**
 * The list `what` names (an action, a category and a sorted bouquet set: never a line, the lists
 * hold no credentials) as of catalogue `version`: from memory when built under that version,
 * otherwise built once by `build`. The version moves with every change of the catalogue or a
 * bouquet (migration 031), so a change shows at the next request, in every process.
 * `compress: false` keeps no gzipped copy (a text that is not sent as it is kept).
 */
export async function cachedList(cache: ListCache, what: string, version: number, build: () => Promise<string>, compress = true): Promise<BuiltList> {
  const key = `${version}|${what}`;
  const kept = cache.lists.get(key);
  if (kept) return kept;
  let pending = cache.building.get(key);
  if (!pending) {
    pending = build()
      .then((body) => built(body, compress))
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

/** Whether an Accept-Encoding header takes gzip: named with q > 0, or not named and `*` with q > 0. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  const quality = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    quality.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const q = quality.get('gzip') ?? quality.get('*') ?? 0;
  return q > 0;
}
