import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './queryKeys';
import type { CatalogueKind, StreamsQuery } from './types';

/** Catalogue reads shared by the catalogue, bouquet and package pages. */
export const KINDS: readonly CatalogueKind[] = ['live', 'movie', 'series'];

export function useStreams(query: StreamsQuery, enabled = true) {
  return useQuery({
    queryKey: queryKeys.catalogue.streams(query),
    queryFn: ({ signal }) => api.GET('/api/admin/streams', { params: { query }, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Every category (all kinds; a few hundred at most). */
export function useCategories() {
  return useQuery({
    queryKey: queryKeys.catalogue.categories(),
    queryFn: ({ signal }) => api.GET('/api/admin/categories', { signal }).then((r) => r.data),
    staleTime: 60_000,
  });
}

/** Every bouquet (admin only; not paged). */
export function useBouquets() {
  return useQuery({
    queryKey: queryKeys.bouquets(),
    queryFn: ({ signal }) => api.GET('/api/admin/bouquets', { signal }).then((r) => r.data),
  });
}
