import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/** The online list and the online card refresh this often (every 15 s). */
export const ONLINE_REFRESH_MS = 15_000;

/** The online list's query keys (under 'p2p', the P2P family of features/p2p/queryKeys.ts). */
export const p2pOnlineKeys = {
  /** P2pOnline: GET /p2p/users/online. */
  all: () => ['p2p', 'online'] as const,
};

/**
 * GET /p2p/users/online; `silent`: NOT_CONFIGURED is shown in place, not as a toast.
 * `enabled` false (the P2P server is not configured, or not known yet): no request.
 */
export function useP2pOnline(enabled = true) {
  return useQuery({
    // P2pOnlineRow[] (the `data` array), in the P2P family of features/p2p/queryKeys.ts
    queryKey: p2pOnlineKeys.all(),
    queryFn: async ({ signal }) => (await api.GET('/api/p2p/users/online', { signal, silent: true })).data,
    refetchInterval: ONLINE_REFRESH_MS,
    retry: false,
    enabled,
  });
}
