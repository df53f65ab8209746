import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { queryClient } from '../../api/queryClient';

export type Role = 'admin' | 'master' | 'reseller';

export interface Profile {
  id: number;
  username: string;
  type: Role;
  credits: number;
  two_factor_enabled?: boolean;
  /** REQUIRE_ADMIN_2FA: this admin must turn on two-factor sign-in before anything else */
  two_factor_required?: boolean;
}

export const PROFILE_KEY = queryKeys.profile();

export const profileQuery = queryOptions({
  queryKey: PROFILE_KEY,
  queryFn: ({ signal }) => api<Profile>('/profile', { signal }),
  staleTime: 60_000,
});

/** The signed-in reseller (id, username, type, credits); loaded once the layout mounts. */
export function useProfile() {
  return useQuery(profileQuery);
}

/** Refetches the profile (e.g. the credit balance after spending). Safe to call anywhere. */
export function reloadProfile(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
}

/** Profile for route guards (uses the cache when present). */
export function ensureProfile(): Promise<Profile> {
  return queryClient.ensureQueryData(profileQuery);
}
