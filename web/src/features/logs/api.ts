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
