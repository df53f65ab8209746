import type { LineStatus, PlayerLine } from './access.ts';
import type { PlayerStream } from './repo.ts';

// The Xtream Codes player API's answers, field for field as players read them: ids of streams are
// numbers, but most other figures travel as strings ("added", "category_id", "exp_date", ...).

const text = (v: number | string | null | undefined) => (v === null || v === undefined ? '' : String(v));
const rating5 = (r: number | null) => (r === null ? 0 : Math.round((r / 2) * 10) / 10);

export function userInfo(line: PlayerLine, status: LineStatus, activeCons: number) {
  return {
    username: line.username,
    password: line.password,
    message: '',
    auth: 1,
    status,
    exp_date: text(line.exp_date),
    is_trial: line.is_trial === 1 ? '1' : '0',
    active_cons: text(activeCons),
    created_at: text(line.created_at),
    max_connections: text(line.max_connections),
    allowed_output_formats: ['m3u8', 'ts'],
  };
}

/** Where players fetch streams: the stream base address (default edge, else owner's domain, main_domain or ours). */
export function serverInfo(base: string, now: number) {
  const url = new URL(base);
  const https = url.protocol === 'https:';
  const port = url.port || (https ? '443' : '80');
  return {
    url: url.hostname,
    port: https ? '80' : port,
    https_port: https ? port : '443',
    server_protocol: https ? 'https' : 'http',
    rtmp_port: '0',
    timezone: 'UTC',
    timestamp_now: now,
    time_now: new Date(now * 1000).toISOString().slice(0, 19).replace('T', ' '),
    process: true,
  };
}

export const category = (c: { id: number; name: string }) => ({ category_id: text(c.id), category_name: c.name, parent_id: 0 });

export const liveStream = (s: PlayerStream, num: number) => ({
  num,
  name: s.name,
  stream_type: 'live',
  stream_id: s.id,
  stream_icon: s.icon ?? '',
  epg_channel_id: s.epg_id ?? '',
  added: text(s.added),
  custom_sid: '',
  tv_archive: 0,
  direct_source: '',
  tv_archive_duration: 0,
  category_id: text(s.category_id),
  category_ids: [s.category_id],
  thumbnail: '',
});

/** A movie as get_vod_streams lists it and get_vod_info's movie_data gives it. */
const movieData = (s: PlayerStream) => ({
  stream_id: s.id,
  name: s.name,
  title: s.name,
  year: '',
  added: text(s.added),
  category_id: text(s.category_id),
  category_ids: [s.category_id],
  container_extension: s.container_ext,
  custom_sid: '',
  direct_source: '',
});

export const vodStream = (s: PlayerStream, num: number) => ({
  num,
  stream_type: 'movie',
  stream_icon: s.icon ?? '',
  rating: text(s.rating),
  rating_5based: rating5(s.rating),
  ...movieData(s),
});

const seriesInfo = (s: PlayerStream) => ({
  name: s.name,
  title: s.name,
  year: '',
  cover: s.icon ?? '',
  plot: '',
  cast: '',
  director: '',
  genre: '',
  releaseDate: '',
  release_date: '',
  last_modified: text(s.added),
  rating: text(s.rating),
  rating_5based: rating5(s.rating),
  backdrop_path: [] as string[],
  youtube_trailer: '',
  episode_run_time: '',
  category_id: text(s.category_id),
  category_ids: [s.category_id],
});

/** A series entry of the catalogue is one playable item: listed as a series of one episode. */
export const series = (s: PlayerStream, num: number) => ({ num, series_id: s.id, stream_type: 'series', ...seriesInfo(s) });

export function seriesDetail(s: PlayerStream) {
  const episode = {
    id: text(s.id),
    episode_num: 1,
    title: s.name,
    container_extension: s.container_ext,
    info: { movie_image: s.icon ?? '', plot: '', duration_secs: 0, duration: '00:00:00', rating: s.rating ?? 0, season: 1 },
    custom_sid: '',
    added: text(s.added),
    season: 1,
    direct_source: '',
  };
  const season = { id: 1, name: 'Season 1', episode_count: 1, overview: '', air_date: '', cover: s.icon ?? '', season_number: 1, cover_big: s.icon ?? '', vote_average: 0 };
  return { seasons: [season], info: { ...seriesInfo(s), series_id: s.id }, episodes: { '1': [episode] } };
}

export function vodDetail(s: PlayerStream) {
  return {
    info: {
      name: s.name,
      o_name: s.name,
      cover_big: s.icon ?? '',
      movie_image: s.icon ?? '',
      tmdb_id: '',
      release_date: '',
      releasedate: '',
      youtube_trailer: '',
      director: '',
      actors: '',
      cast: '',
      description: '',
      plot: '',
      age: '',
      country: '',
      genre: '',
      backdrop_path: [] as string[],
      duration_secs: 0,
      duration: '00:00:00',
      bitrate: 0,
      rating: text(s.rating),
    },
    movie_data: movieData(s),
  };
}

/** What players get for a title that is not theirs (or does not exist): the shapes they test for "not found". */
export const NO_VOD = { info: [], movie_data: [] };
export const NO_SERIES = { seasons: [], info: { name: null }, episodes: {} };
export const NO_EPG = { epg_listings: [] };
