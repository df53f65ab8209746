import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { logKeys } from './queryKeys';
import type { LogsQuery } from '../../api/types';

export function useLogs(query: LogsQuery) {
  return useQuery({
    queryKey: logKeys.list(query),
    queryFn: ({ signal }) => api.GET('/api/logs', { params: { query }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useLogOptions() {
  return useQuery({
    queryKey: logKeys.options(),
    queryFn: ({ signal }) => api.GET('/api/logs/getoptions', { signal }),
    staleTime: 60 * 60_000,
  });
}
