import type { Config } from '../../config.ts';
import { appError } from '../../http/errors.ts';
import { fetchLimited, UpstreamError } from '../integrations/service.ts';

/** A title of the movie catalogue search, as the content-request page shows it. */
export interface CatalogueTitle {
  movie_id: number;
  title: string;
  year: string;
  stars: number;
  image_link: string | null;
  media_type: 'movie' | 'tv';
}

interface TmdbResult {
  id?: unknown;
  media_type?: unknown;
  title?: unknown;
  name?: unknown;
  release_date?: unknown;
  first_air_date?: unknown;
  vote_average?: unknown;
  poster_path?: unknown;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** TMDB's result to ours; people and malformed entries are left out. */
export function normalise(r: TmdbResult, imageUrl: string): CatalogueTitle | null {
  if ((r.media_type !== 'movie' && r.media_type !== 'tv') || !Number.isSafeInteger(r.id) || (r.id as number) <= 0) return null;
  const title = str(r.title) || str(r.name);
  if (!title) return null;
  const year = (str(r.release_date) || str(r.first_air_date)).slice(0, 4);
  const stars = typeof r.vote_average === 'number' && Number.isFinite(r.vote_average) ? Math.round(r.vote_average * 10) / 10 : 0;
  const poster = str(r.poster_path);
  return {
    movie_id: r.id as number,
    title: title.slice(0, 300),
    year: /^\d{4}$/.test(year) ? year : '',
    stars: Math.min(10, Math.max(0, stars)),
    image_link: /^\/[\w.-]+$/.test(poster) ? `${imageUrl}${poster}` : null,
    media_type: r.media_type,
  };
}

/** The search can be asked: TMDB_API_KEY is set (docs/configuration.md). */
export const isCatalogueConfigured = (config: Config) => !!config.tmdbApiKey;

/** TMDB v3 `search/multi` in pt-BR, first page. The key stays on the server. */
export async function searchCatalogue(config: Config, query: string): Promise<CatalogueTitle[]> {
  if (!config.tmdbApiKey) throw appError('NOT_CONFIGURED', { params: { what: 'The movie catalogue (TMDB_API_KEY)' } });
  const url = new URL(`${config.tmdbApiUrl}/search/multi`);
  url.search = new URLSearchParams({ api_key: config.tmdbApiKey, query, language: 'pt-BR', page: '1', include_adult: 'false' }).toString();
  let body: { results?: unknown };
  try {
    const res = await fetchLimited(url.toString(), { headers: { accept: 'application/json' } }, { timeoutMs: config.integrationTimeoutMs, maxBytes: 2_000_000 });
    if (res.status !== 200) throw new UpstreamError(`status ${res.status}`, res.status);
    body = JSON.parse(res.text) as { results?: unknown };
  } catch (err) {
    throw appError('CATALOGUE_UNAVAILABLE', { params: { why: err instanceof SyntaxError ? 'not JSON' : (err as Error).message } });
  }
  if (!Array.isArray(body.results)) throw appError('CATALOGUE_UNAVAILABLE', { params: { why: 'no results list' } });
  return body.results.map((r) => normalise(r as TmdbResult, config.tmdbImageUrl)).filter((r): r is CatalogueTitle => r !== null);
}
