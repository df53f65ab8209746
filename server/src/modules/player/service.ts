import type { Readable } from 'node:stream';
import type { Tx } from '../../db/tx.ts';
import type { CatalogueKind } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { nowSec } from '../../lib/clock.ts';
import { onlineCount } from '../connections/service.ts';
import { streamBase } from '../domains/service.ts';
import { panelOrigin } from '../shortlinks/service.ts';
import { type PlayerLine, authenticateLine, bouquetIds, lineStatus } from './access.ts';
import { type BuiltList, cachedList, listCacheOf } from './list-cache.ts';
import { collectText, entitledStreams, jsonArray } from './listing.ts';
import * as repo from './repo.ts';
import * as X from './xtream.ts';

export { playlist } from './playlist.ts';
export { type LineStatus, type PlayerLine, authenticateLine, bouquetIds, inAddressTurn, lineStatus, rightPassword } from './access.ts';

/** A stream of `kind` if the line's bouquets give it (the edge gateway's question). */
export const entitledStream = ({ database }: Deps, line: Pick<PlayerLine, 'bouquet'>, id: number, kind: CatalogueKind) => repo.streamFor(database.db, bouquetIds(line), id, kind);

export interface PlayerQuery {
  username: string;
  password: string;
  action?: string;
  category_id?: string;
  vod_id?: string;
  series_id?: string;
  stream_id?: string;
}

/** A value to send as JSON, a JSON text streamed out (a playlist, or a list when the cache is off), or a kept list with its ETag. */
export type PlayerAnswer = { json: unknown } | { stream: Readable } | { list: BuiltList };

const CATEGORIES: Record<string, CatalogueKind> = { get_live_categories: 'live', get_vod_categories: 'movie', get_series_categories: 'series' };
const LISTS = {
  get_live_streams: ['live', X.liveStream],
  get_vod_streams: ['movie', X.vodStream],
  get_series: ['series', X.series],
} as const satisfies Record<string, [CatalogueKind, (s: repo.PlayerStream, num: number) => unknown]>;
const AUTH_ACTIONS = new Set(['', 'get_profile', 'get_server_info']);
const EPG_ACTIONS = new Set(['get_short_epg', 'get_simple_data_table']);

/** An id as players send it (digits, or empty for "all"); anything else finds nothing. */
const idParam = (raw: string | undefined) => (raw && /^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= 2147483647 ? Number(raw) : undefined);

/**
 * GET /player_api.php (docs/integrations.md, "Player API and playlists"). Wrong credentials: `{user_info:{auth:0}}` with
 * 200, as players expect. A line that is not active gets its status and no content.
 */
export async function playerApi(deps: Deps, q: PlayerQuery, ip: string, requestOrigin: string): Promise<PlayerAnswer> {
  const line = await authenticateLine(deps, { username: q.username, password: q.password, ip });
  if (!line) return { json: { user_info: { auth: 0 } } };
  const db = deps.database.db;
  const now = nowSec();
  const status = lineStatus(line, now);
  const action = q.action ?? '';
  if (AUTH_ACTIONS.has(action)) {
    const base = await streamBase(db, line.member_id, panelOrigin(deps.config, requestOrigin));
    return { json: { user_info: X.userInfo(line, status, await onlineCount(deps, line.id)), server_info: X.serverInfo(base, now) } };
  }
  const bouquets = status === 'Active' ? bouquetIds(line) : [];
  const categoryId = q.category_id ? idParam(q.category_id) : undefined;
  if (action in CATEGORIES || action in LISTS) {
    // a category id that is no number matches nothing, not everything
    if (!bouquets.length || (action in LISTS && q.category_id && categoryId === undefined)) return { json: [] };
    const cache = listCacheOf(deps);
    if (!cache) {
      if (action in CATEGORIES) return { json: await categoryList(db, action, bouquets) };
      return { stream: streamList(db, action, bouquets, categoryId) };
    }
    // Every line with these bouquets gets the same list: built once per catalogue version.
    const what = `${action}|${action in LISTS ? (categoryId ?? '') : ''}|${[...new Set(bouquets)].sort((a, b) => a - b).join(',')}`;
    return { list: await cachedList(cache, what, await repo.catalogueVersion(db), () => buildList(db, action, bouquets, categoryId)) };
  }
  if (action === 'get_vod_info') {
    const id = idParam(q.vod_id);
    const s = bouquets.length && id ? await repo.streamFor(db, bouquets, id, 'movie') : undefined;
    return { json: s ? X.vodDetail(s) : X.NO_VOD };
  }
  if (action === 'get_series_info') {
    const id = idParam(q.series_id);
    const s = bouquets.length && id ? await repo.streamFor(db, bouquets, id, 'series') : undefined;
    return { json: s ? X.seriesDetail(s) : X.NO_SERIES };
  }
  // The catalogue holds no programme guide yet: players get an empty one.
  if (EPG_ACTIONS.has(action)) return { json: X.NO_EPG };
  return { json: [] };
}

/** A stream list written as its keyset batches arrive (without the cache: no list sits in memory whole). */
function streamList(db: Tx, action: string, bouquets: number[], categoryId: number | undefined): Readable {
  const [kind, shape] = LISTS[action as keyof typeof LISTS];
  return jsonArray(entitledStreams(db, bouquets, kind, categoryId), shape as (s: repo.PlayerStream, n: number) => unknown);
}

/** The categories of a kind the bouquets give, as players read them. */
async function categoryList(db: Tx, action: string, bouquets: number[]) {
  return (await repo.categoriesFor(db, bouquets, CATEGORIES[action])).map(X.category);
}

/** The JSON text of a category list or a stream list of the bouquets, to keep. */
async function buildList(db: Tx, action: string, bouquets: number[], categoryId: number | undefined): Promise<string> {
  if (action in CATEGORIES) return JSON.stringify(await categoryList(db, action, bouquets));
  return collectText(streamList(db, action, bouquets, categoryId));
}
