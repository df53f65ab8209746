import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { CatalogueKind, StreamsQuery } from './types';

/** Catalogue reads shared by the catalogue, bouquet and package pages. */
export const KINDS: readonly CatalogueKind[] = ['live', 'movie', 'series'];

export const catalogueKeys = {
  all: () => ['catalogue'] as const,
  /** StreamPage: GET /admin/streams. */
  streams: (query: StreamsQuery) => ['catalogue', 'streams', query] as const,
  /** Category[]: GET /admin/categories (the `data` array). */
  categories: () => ['catalogue', 'categories'] as const,
  /** Bouquet[]: GET /admin/bouquets (the `data` array). */
  bouquets: () => ['bouquets'] as const,
};

export function useStreams(query: StreamsQuery, enabled = true) {
  return useQuery({
    queryKey: catalogueKeys.streams(query),
    queryFn: ({ signal }) => api.GET('/api/admin/streams', { params: { query }, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Every category (all kinds; a few hundred at most). */
export function useCategories() {
  return useQuery({
    queryKey: catalogueKeys.categories(),
    queryFn: ({ signal }) => api.GET('/api/admin/categories', { signal }).then((r) => r.data),
    staleTime: 60_000,
  });
}

/** Every bouquet (admin only; not paged). */
export function useBouquets() {
  return useQuery({
    queryKey: catalogueKeys.bouquets(),
    queryFn: ({ signal }) => api.GET('/api/admin/bouquets', { signal }).then((r) => r.data),
  });
}
