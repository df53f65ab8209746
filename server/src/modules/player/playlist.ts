import { Readable } from 'node:stream';
import type { CatalogueKind } from '../../db/types.ts';
import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError, type AppError } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { streamBase } from '../domains/service.ts';
import { panelOrigin } from '../shortlinks/service.ts';
import { type LineStatus, authenticateLine, bouquetIds, lineStatus } from './access.ts';
import { cachedList, listCacheOf } from './list-cache.ts';
import { collectText, entitledStreams } from './listing.ts';
import { catalogueVersion, type PlayerStream } from './repo.ts';

export interface PlaylistQuery {
  username: string;
  password: string;
  type?: 'm3u_plus' | 'm3u';
  /** live streams' format: MPEG-TS (`ts`, `mpegts`) or HLS (`m3u8`, `hls`) */
  output?: 'ts' | 'mpegts' | 'm3u8' | 'hls';
}

const REFUSED: Record<Exclude<LineStatus, 'Active'>, AppError> = {
  Banned: appError('LINE_BLOCKED', { status: 403 }),
  Expired: appError('LINE_EXPIRED', { status: 403 }),
  Disabled: appError('LINE_DISABLED'),
};

const PATHS: Record<CatalogueKind, string> = { live: 'live', movie: 'movie', series: 'series' };
/** Attribute values and titles stay on their line and inside their quotes (and hold no NUL: see CREDENTIALS). */
const attr = (s: string) => s.replace(/["\r\n\0]/g, ' ');
const title = (s: string) => s.replace(/[\r\n\0]/g, ' ');
/** Where a kept playlist template has the line's credentials; no other NUL is written (attr, title, noNul). */
const CREDENTIALS = '\0';
const noNul = (s: string) => s.replaceAll('\0', '');

interface PlaylistShape {
  /** scheme, host and port of the stream URLs */
  base: string;
  liveExt: 'm3u8' | 'ts';
  plus: boolean;
  bouquets: number[];
}

/**
 * GET /get.php (docs/integrations.md, "Player API and playlists"): the line's whole catalogue as an
 * M3U playlist, live channels first, then movies and series, each in id order. Stream URLs point at
 * the default edge (setting default_edge), else the owner's domain, else main_domain, else the
 * panel's own address: the edges serving them ask /gateway/auth. With the list cache on
 * (PLAYER_CACHE_MB), the text is built once per bouquet set, link base and format and catalogue
 * version, with a mark where the credentials go; off, it is written as the rows arrive, a batch at
 * a time, so a bouquet of 100,000 entries never sits in memory.
 */
export async function playlist(deps: Deps, q: PlaylistQuery, ip: string, requestOrigin: string): Promise<Readable | string> {
  const line = await authenticateLine(deps, { username: q.username, password: q.password, ip });
  if (!line) throw appError('INVALID_CREDENTIALS');
  const status = lineStatus(line, nowSec());
  if (status !== 'Active') throw REFUSED[status];
  const db = deps.database.db;
  const shape: PlaylistShape = {
    base: await streamBase(db, line.member_id, panelOrigin(deps.config, requestOrigin)),
    liveExt: q.output === 'm3u8' || q.output === 'hls' ? 'm3u8' : 'ts',
    plus: (q.type ?? 'm3u_plus') === 'm3u_plus',
    bouquets: [...new Set(bouquetIds(line))].sort((a, b) => a - b),
  };
  const credentials = `${encodeURIComponent(line.username)}/${encodeURIComponent(line.password)}`;
  const cache = listCacheOf(deps);
  if (!cache) return Readable.from(playlistText(db, shape, credentials), { objectMode: false });
  // Lines with the same bouquets, links and format share one template, kept per catalogue version;
  // each gets its copy with its own credentials in the URLs.
  const what = `get.php|${shape.plus ? 'plus' : 'plain'}|${shape.liveExt}|${shape.base}|${shape.bouquets.join(',')}`;
  const template = await cachedList(cache, what, await catalogueVersion(db), () => collectText(playlistText(db, shape, CREDENTIALS)), false);
  return template.body.replaceAll(CREDENTIALS, credentials);
}

/** The playlist's text, 500 entries to a chunk, read a batch of rows at a time. */
async function* playlistText(db: Tx, { base, liveExt, plus, bouquets }: PlaylistShape, credentials: string): AsyncGenerator<string> {
  const entry = (s: PlayerStream) => {
    const url = `${noNul(base)}/${PATHS[s.kind]}/${credentials}/${s.id}.${s.kind === 'live' ? liveExt : noNul(s.container_ext)}`;
    const info = plus
      ? `#EXTINF:-1 tvg-id="${attr(s.epg_id ?? '')}" tvg-name="${attr(s.name)}" tvg-logo="${attr(s.icon ?? '')}" group-title="${attr(s.category_name)}",${title(s.name)}`
      : `#EXTINF:-1,${title(s.name)}`;
    return `${info}\n${url}\n`;
  };
  yield '#EXTM3U\n';
  if (!bouquets.length) return;
  for (const kind of ['live', 'movie', 'series'] as const) {
    let chunk = '';
    let n = 0;
    for await (const s of entitledStreams(db, bouquets, kind)) {
      chunk += entry(s);
      if (++n % 500 === 0) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
}
