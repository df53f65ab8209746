import { Type } from 'typebox';
import { PageQuery, orderBy } from '../../http/paging.ts';
import { Nullable } from '../../http/schemas.ts';

export const KINDS = ['live', 'movie', 'series'] as const;
export const Kind = Type.Union([Type.Literal('live'), Type.Literal('movie'), Type.Literal('series')]);
const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const CategoryOut = Type.Object({
  id: Type.Integer(),
  kind: Kind,
  name: Type.String(),
  streams_count: Type.Integer(),
});

export const StreamOut = Type.Object({
  id: Type.Integer(),
  kind: Kind,
  name: Type.String(),
  category_id: Type.Integer(),
  category_name: Type.String(),
  icon: Nullable(Type.String()),
  added: Type.Integer(),
  container_ext: Type.String(),
  source_url: Type.String(),
  epg_id: Nullable(Type.String()),
  rating: Nullable(Type.Number()),
});

export const CategoriesQuery = Type.Object({ kind: Type.Optional(Kind) });

/** The stream list's sorts (public name -> column). */
export const STREAM_ORDER_FIELDS = { id: 's.id', name: 's.name', added: 's.added', kind: 's.kind', category_id: 's.category_id' };

export const StreamsQuery = Type.Object({
  ...PageQuery,
  order_by: orderBy(STREAM_ORDER_FIELDS),
  kind: Type.Optional(Kind),
  category_id: Type.Optional(Id),
  /** case-insensitive part of the name */
  search: Type.Optional(Type.String({ maxLength: 100 })),
  /** only these streams: up to 100 comma-separated ids (names of a bouquet's chosen streams) */
  ids: Type.Optional(Type.String({ maxLength: 1100, pattern: '^[0-9]{1,10}(,[0-9]{1,10}){0,99}$' })),
});

/** Playlists up to this size are taken as text (the route's body limit) or fetched from a URL. */
export const MAX_PLAYLIST_BYTES = 32 * 1024 * 1024;

export const IMPORT_DESCRIPTION = [
  'Imports an M3U playlist (`m3u`: its text, or `url`: fetched through the SSRF guard), up to 32 MiB and 100,000 entries.',
  'A playlist with more #EXTINF entries is refused (400 `M3U_INVALID`) as soon as the count is passed while the body or the download arrives, before anything is parsed.',
  'One import at a time: another one running (in any server process) answers 409 `IMPORT_RUNNING`.',
  'The entries are stored in batches of 500, each its own transaction, so other requests go on during an import;',
  'if one fails (a 500), the batches before it stay and importing the same playlist again completes the import (streams are matched by source URL).',
  'Malformed input imports nothing.',
].join(' ');

export const ImportBody = Type.Object({
  /**
   * the playlist's text (an uploaded file), up to 32 MiB: the route's body limit (a 413) bounds it,
   * not a maxLength, whose check walks all of it on the event loop (0.1 s at 17 MB)
   */
  m3u: Type.Optional(Type.String({ minLength: 1, description: 'the playlist text, up to 32 MiB (the body limit)' })),
  /** or where to fetch it (through the SSRF guard) */
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  /** every entry is of this kind; by default each entry's URL says (/movie/, /series/, a video file) */
  kind: Type.Optional(Kind),
});

export const Skipped = Type.Object({ line: Type.Integer(), name: Type.String(), reason: Type.String() });

export const ImportResult = Type.Object({
  added: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  /** entries left out, with the reason (the first 1,000) */
  skipped: Type.Array(Skipped),
  skipped_total: Type.Integer(),
  categories_added: Type.Integer(),
});

export const LatestQuery = Type.Object({ type: Type.Union([Type.Literal('movie'), Type.Literal('series')]) });

/** A catalogue item: name, added, stream_icon (movies), cover (series). */
export const LatestItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  added: Type.Integer(),
  category_name: Type.String(),
  stream_icon: Nullable(Type.String()),
  cover: Nullable(Type.String()),
});
