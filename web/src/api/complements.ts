import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/** Complements: GET /datacomplements (raw answer). */
export const COMPLEMENTS_KEY = ['datacomplements'] as const;

/** The one hook of GET /datacomplements: reference data every signed-in page may need (changes rarely: cached for 5 minutes). */
export function useComplements() {
  return useQuery({
    queryKey: COMPLEMENTS_KEY,
    queryFn: ({ signal }) => api.GET('/api/datacomplements', { signal }),
    staleTime: 5 * 60_000,
  });
}
