import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './queryKeys';

/** The one hook of GET /datacomplements: reference data every signed-in page may need (changes rarely: cached for 5 minutes). */
export function useComplements() {
  return useQuery({
    queryKey: queryKeys.complements(),
    queryFn: ({ signal }) => api.GET('/api/datacomplements', { signal }),
    staleTime: 5 * 60_000,
  });
}
