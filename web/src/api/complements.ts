import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './queryKeys';

/** A package as GET /datacomplements lists it (the line forms pick from these). */
export interface LinePackage {
  id: number;
  package_name: string;
  is_trial: number;
  is_official: number;
  max_connections: number;
  official_credits: number;
  official_duration: number;
  official_duration_in: string;
  bouquets: string[];
}

/** A reseller group ('admin' | 'master' | 'reseller' types). */
export interface ResellerGroup {
  group_id: number;
  group_name: string;
  type: string;
}

/** GET /datacomplements: reference data every signed-in page may need. */
export interface Complements {
  groups: ResellerGroup[];
  settings: Record<string, string>;
  packages: LinePackage[];
  bouquets: { id: number; bouquet_name: string }[];
  server_time: number;
  /** PUBLIC_URL of the server, null when unset. */
  public_url: string | null;
}

/** The one hook of GET /datacomplements (changes rarely: cached for 5 minutes). */
export function useComplements() {
  return useQuery({
    queryKey: queryKeys.complements(),
    queryFn: ({ signal }) => api<Complements>('/datacomplements', { signal }),
    staleTime: 5 * 60_000,
  });
}
