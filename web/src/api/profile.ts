import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { queryClient } from './queryClient';
import type { Profile } from './types';

/** Profile: GET /profile. */
/** The profile's query keys. */
export const profileKeys = {
  /** Profile: GET /profile. */
  all: () => ['profile'] as const,
};

export const profileQuery = queryOptions({
  queryKey: profileKeys.all(),
  queryFn: ({ signal }) => api.GET('/api/profile', { signal }),
  staleTime: 60_000,
});

/** The signed-in reseller (id, username, type, credits); loaded once the layout mounts. */
export function useProfile() {
  return useQuery(profileQuery);
}

/** Refetches the profile (e.g. the credit balance after spending). Safe to call anywhere. */
export function reloadProfile(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: profileKeys.all() });
}

/** Profile for route guards (uses the cache when present). */
export function ensureProfile(): Promise<Profile> {
  return queryClient.ensureQueryData(profileQuery);
}
