import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryClient } from '../../api/queryClient';
import { dashboardKeys } from '../dashboard/queryKeys';
import { connectionKeys } from './queryKeys';
import type { ConnectionsQuery } from '../../api/types';

/** The online list refreshes every 15 s. */
export const CONNECTIONS_REFRESH_MS = 15_000;

export function useConnections(query: ConnectionsQuery) {
  return useQuery({
    queryKey: connectionKeys.list(query),
    // `created` days are the browser's local days: the server needs the offset to find them.
    queryFn: ({ signal }) =>
      api.GET('/api/users/connections', { params: { query: query.created ? { ...query, tz_offset: -new Date().getTimezoneOffset() } : query }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: CONNECTIONS_REFRESH_MS,
  });
}

/** Ends a connection (its player is refused at the next segment); the list and the dashboard's online cards reload. */
export function useDisconnect() {
  return useMutation({
    mutationFn: ({ lineId, activityId }: { lineId: number; activityId: number }) =>
      api.POST('/api/users/connections/{line_id}/{activity_id}/disconnect', { params: { path: { line_id: lineId, activity_id: activityId } } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: connectionKeys.all() }),
        queryClient.invalidateQueries({ queryKey: dashboardKeys.counters() }),
      ]),
  });
}
