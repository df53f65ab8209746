import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { SearchOption } from './types';

/** docs/rules.md: searches wait 500 ms after the last key. */
export const SEARCH_DEBOUNCE_MS = 500;

/** Only word characters, at most 50: POST /resellers/select_search accepts nothing else. */
export function wordChars(v: string, max = 50): string {
  return v.replace(/\W+/g, '').slice(0, max);
}

/** Reseller look-ups, in the resellers family of features/resellers/queryKeys.ts (its `all` refreshes them). */
export const resellerLookupKeys = {
  /** SearchOption[]: POST /resellers/select_search (the `data` array). */
  search: (term: string) => ['resellers', 'search', term] as const,
  /** string (the username) of GET /resellers/{id}. */
  name: (id: number | undefined) => ['resellers', 'name', id] as const,
};

/** POST /resellers/select_search: up to 20 resellers of the caller's subtree. */
export function searchResellers(search: string, signal?: AbortSignal): Promise<SearchOption[]> {
  return api.POST('/api/resellers/select_search', { body: { search: wordChars(search) }, signal }).then((r) => r.data ?? []);
}

export function useResellerSearch(term: string, enabled: boolean) {
  const search = wordChars(term);
  return useQuery({
    queryKey: resellerLookupKeys.search(search),
    queryFn: ({ signal }) => searchResellers(search, signal),
    enabled,
    staleTime: 60_000,
  });
}

/** Username of a reseller id (chips and pickers opened from a URL); silent, null when not visible. */
export function useResellerName(id: number | undefined) {
  return useQuery({
    queryKey: resellerLookupKeys.name(id),
    queryFn: ({ signal }) => api.GET('/api/resellers/{id}', { params: { path: { id: id! } }, signal, silent: true }).then((r) => r.username),
    enabled: id !== undefined,
    staleTime: 10 * 60_000,
    retry: false,
  });
}
