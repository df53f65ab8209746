import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/** Complements: GET /datacomplements (raw answer). */
/** The complements' query keys. */
export const complementsKeys = {
  /** Complements: GET /datacomplements. */
  all: () => ['datacomplements'] as const,
};

/** The one hook of GET /datacomplements: reference data every signed-in page may need (changes rarely: cached for 5 minutes). */
export function useComplements() {
  return useQuery({
    queryKey: complementsKeys.all(),
    queryFn: ({ signal }) => api.GET('/api/datacomplements', { signal }),
    staleTime: 5 * 60_000,
  });
}

/**
 * Whether the P2P server is configured (`p2p_configured`): false refuses P2P creations, trials,
 * renewals and client imports (503 NOT_CONFIGURED) and has no online list. Undefined while loading;
 * true when the complements could not be read (the P2P calls then answer for themselves).
 */
export function useP2pConfigured(): boolean | undefined {
  const complements = useComplements();
  if (complements.isError) return true;
  return complements.data?.p2p_configured;
}
