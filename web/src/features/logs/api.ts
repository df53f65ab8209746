import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import type { Paged } from '../../api/errors';

export interface LogEntry {
  id: number;
  type_log: string;
  action: string;
  /** Username of who did it (null for failed sign-ins). */
  user: string | null;
  /** Username of the reseller the entry belongs to. */
  reseller: string | null;
  /** Username of the target reseller. */
  toreseller: string | null;
  /** Username of the target line. */
  target_user: string | null;
  value: string | null;
  value_int: number | null;
  /** Epoch ms. */
  created_at: number;
}

export interface LogOptions {
  types: string[];
  actions: string[];
}

export interface PickerOption {
  label: string;
  value: string;
}

type Query = Record<string, string | number | undefined>;

export function useLogs(query: Query) {
  return useQuery({
    queryKey: queryKeys.logs.list(query),
    queryFn: ({ signal }) => api<Paged<LogEntry>>('/logs', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useLogOptions() {
  return useQuery({
    queryKey: queryKeys.logs.options(),
    queryFn: ({ signal }) => api<LogOptions>('/logs/getoptions', { signal }),
    staleTime: 60 * 60_000,
  });
}

/** Only word characters: POST /resellers/select_search accepts nothing else. */
export function wordChars(v: string, max = 50): string {
  return v.replace(/\W+/g, '').slice(0, max);
}

/** POST /resellers/select_search (masters and admins): up to a few {label: username, value: id}. */
export function useResellerSearch(search: string, enabled: boolean) {
  const term = wordChars(search);
  return useQuery({
    queryKey: queryKeys.resellers.search(term),
    queryFn: async ({ signal }): Promise<PickerOption[]> =>
      (await api<{ data: PickerOption[] }>('/resellers/select_search', { method: 'POST', body: { search: term }, signal })).data ?? [],
    enabled,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

/** Username of a reseller id (chips and pickers opened from a URL); silent, null when not visible. */
export function useResellerName(id: number | undefined) {
  return useQuery({
    queryKey: queryKeys.resellers.name(id),
    queryFn: ({ signal }) => api<{ username: string }>(`/resellers/${id}`, { signal, silent: true }).then((r) => r.username),
    enabled: id !== undefined,
    staleTime: 10 * 60_000,
    retry: false,
  });
}
