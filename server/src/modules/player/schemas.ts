import { Type } from 'typebox';

// The player API and playlists as the OpenAPI document shows them. Answers are written by the
// handlers themselves (big listings are streamed), so these schemas describe, they do not serialise.

const Credential = Type.String({ minLength: 1, maxLength: 100 });
/** players send ids as text; anything that is not a plain id finds nothing */
const IdText = Type.String({ maxLength: 20 });

export const PlayerApiQuery = Type.Object({
  username: Credential,
  password: Credential,
  action: Type.Optional(Type.String({ maxLength: 40, description: 'none (user and server info), get_live_categories, get_vod_categories, get_series_categories, get_live_streams, get_vod_streams, get_series, get_vod_info, get_series_info, get_short_epg; unknown actions answer []' })),
  category_id: Type.Optional(IdText),
  vod_id: Type.Optional(IdText),
  series_id: Type.Optional(IdText),
  stream_id: Type.Optional(IdText),
  limit: Type.Optional(IdText),
});

export const PlaylistQuery = Type.Object({
  username: Credential,
  password: Credential,
  type: Type.Optional(Type.Union([Type.Literal('m3u_plus'), Type.Literal('m3u')])),
  output: Type.Optional(Type.Union([Type.Literal('ts'), Type.Literal('mpegts'), Type.Literal('m3u8'), Type.Literal('hls')])),
});

const Numeric = Type.String({ pattern: '^[0-9]*$' });
const UserInfo = Type.Object({
  username: Type.String(),
  password: Type.String(),
  message: Type.String(),
  auth: Type.Literal(1),
  status: Type.Union([Type.Literal('Active'), Type.Literal('Banned'), Type.Literal('Disabled'), Type.Literal('Expired')]),
  exp_date: Type.Union([Numeric, Type.Null()]),
  is_trial: Type.Union([Type.Literal('0'), Type.Literal('1')]),
  active_cons: Numeric,
  created_at: Numeric,
  max_connections: Numeric,
  allowed_output_formats: Type.Array(Type.String()),
});
const ServerInfo = Type.Object({
  url: Type.String(),
  port: Numeric,
  https_port: Numeric,
  server_protocol: Type.String(),
  rtmp_port: Numeric,
  timezone: Type.String(),
  timestamp_now: Type.Integer(),
  time_now: Type.String(),
  process: Type.Boolean(),
});
const Category = Type.Object({ category_id: Numeric, category_name: Type.String(), parent_id: Type.Integer() });
const Listed = Type.Object(
  { num: Type.Integer(), name: Type.String(), stream_type: Type.String(), category_id: Numeric, added: Type.Optional(Numeric) },
  { additionalProperties: true, description: 'get_live_streams: stream_id, stream_icon, epg_channel_id; get_vod_streams: stream_id, stream_icon, rating, container_extension; get_series: series_id, cover, plot...' },
);
const Detail = Type.Object({}, { additionalProperties: true, description: 'get_vod_info: {info, movie_data}; get_series_info: {seasons, info, episodes}; get_short_epg: {epg_listings}' });

export const PlayerApiAnswer = Type.Union([
  Type.Object({ user_info: UserInfo, server_info: ServerInfo }),
  Type.Object({ user_info: Type.Object({ auth: Type.Literal(0) }) }, { description: 'wrong username or password' }),
  Type.Array(Category),
  Type.Array(Listed),
  Detail,
]);

export const NotModified = Type.Null({ description: 'a category or stream list the player already holds: its If-None-Match named the ETag of the current list' });
