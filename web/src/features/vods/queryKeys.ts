import type { AdminVodsQuery, VodsQuery } from '../../api/types';

/** The VOD requests feature's query keys. */
export const vodKeys = {
  all: () => ['vods'] as const,
  /** VodPage: GET /vods. */
  list: (query: VodsQuery) => ['vods', 'list', query] as const,
  /** AdminVodPage: GET /admin/vods. */
  admin: (query: AdminVodsQuery) => ['vods', 'admin', query] as const,
  /** CatalogueTitle[]: GET /vods/search (the `data` array). */
  search: (q: string) => ['vods', 'search', q] as const,
  /** { configured }: GET /vods/search/status. */
  searchStatus: () => ['vods', 'search-status'] as const,
};
