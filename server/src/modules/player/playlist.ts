import { Readable } from 'node:stream';
import type { CatalogueKind } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { streamBase } from '../domains/service.ts';
import { panelOrigin } from '../shortlinks/service.ts';
import { type LineStatus, authenticateLine, bouquetIds, lineStatus } from './access.ts';
import { entitledStreams } from './listing.ts';
import type { PlayerStream } from './repo.ts';

export interface PlaylistQuery {
  username: string;
  password: string;
  type?: 'm3u_plus' | 'm3u';
  /** live streams' format: MPEG-TS (`ts`, `mpegts`) or HLS (`m3u8`, `hls`) */
  output?: 'ts' | 'mpegts' | 'm3u8' | 'hls';
}

const REFUSED: Record<Exclude<LineStatus, 'Active'>, AppError> = {
  Banned: new AppError(403, 'LINE_BLOCKED', 'This line is blocked'),
  Expired: new AppError(403, 'LINE_EXPIRED', 'This line has expired'),
  Disabled: new AppError(403, 'LINE_DISABLED', 'This line is not active'),
};

const PATHS: Record<CatalogueKind, string> = { live: 'live', movie: 'movie', series: 'series' };
/** Attribute values and titles stay on their line and inside their quotes. */
const attr = (s: string) => s.replace(/["\r\n]/g, ' ');
const title = (s: string) => s.replace(/[\r\n]/g, ' ');

/**
 * GET /get.php (docs/integrations.md, "Player API and playlists"): the line's whole catalogue as an M3U playlist, live
 * channels first, then movies and series, each in id order. Written as the rows arrive, a batch at
 * a time, so a bouquet of 100,000 entries never sits in memory. Stream URLs point at the default
 * edge (setting default_edge), else the owner's domain, else main_domain, else the panel's own
 * address: the edges serving them ask /gateway/auth.
 */
export async function playlist(deps: Deps, q: PlaylistQuery, ip: string, requestOrigin: string): Promise<Readable> {
  const line = await authenticateLine(deps, { username: q.username, password: q.password, ip });
  if (!line) throw new AppError(401, 'INVALID_CREDENTIALS', 'Invalid username or password');
  const status = lineStatus(line, Math.floor(Date.now() / 1000));
  if (status !== 'Active') throw REFUSED[status];
  const db = deps.database.db;
  const base = await streamBase(db, line.member_id, panelOrigin(deps.config, requestOrigin));
  const credentials = `${encodeURIComponent(line.username)}/${encodeURIComponent(line.password)}`;
  const liveExt = q.output === 'm3u8' || q.output === 'hls' ? 'm3u8' : 'ts';
  const plus = (q.type ?? 'm3u_plus') === 'm3u_plus';
  const bouquets = bouquetIds(line);

  const entry = (s: PlayerStream) => {
    const url = `${base}/${PATHS[s.kind]}/${credentials}/${s.id}.${s.kind === 'live' ? liveExt : s.container_ext}`;
    const info = plus
      ? `#EXTINF:-1 tvg-id="${attr(s.epg_id ?? '')}" tvg-name="${attr(s.name)}" tvg-logo="${attr(s.icon ?? '')}" group-title="${attr(s.category_name)}",${title(s.name)}`
      : `#EXTINF:-1,${title(s.name)}`;
    return `${info}\n${url}\n`;
  };
  async function* text() {
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
  return Readable.from(text(), { objectMode: false });
}
