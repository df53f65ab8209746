import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { PageCursors } from '../../components/pagerMath';
import { userKeys } from '../lines/queryKeys';
import { dashboardKeys } from './queryKeys';
import type { ExpiringQuery, LatestType } from '../../api/types';
import { reloadProfile } from '../../api/profile';
import { useIntentMutation } from '../../api/useIntentMutation';

export type SortOrder = NonNullable<ExpiringQuery['order']>;

export const dashboardCountersQuery = queryOptions({
  queryKey: dashboardKeys.counters(),
  queryFn: ({ signal }) => api.GET('/api/dashboard', { signal }),
  // The online cards change by the minute: coming back to the dashboard asks again (not the app's 30 s),
  // while the loader's answer still serves the page's first render.
  staleTime: 5_000,
});

export function useDashboardCounters() {
  return useQuery(dashboardCountersQuery);
}

/**
 * The chart's figures: GET /reports/sales with its defaults, the last 30 days to today by day in
 * the panel's time zone (the reports page asks for other periods under its own keys).
 */
export const dashboardActivityQuery = queryOptions({
  queryKey: dashboardKeys.activity(),
  queryFn: ({ signal }) => api.GET('/api/reports/sales', { params: { query: { bucket: 'day' } }, signal }),
});

export function useDashboardActivity() {
  return useQuery({ ...dashboardActivityQuery, select: (r) => r.series });
}

/** `cursor`: the shown page's meta.next / meta.prev for a neighbouring page (components/pagerMath pageCursor). */
export function expiringQuery(order: SortOrder, page: number, per: NonNullable<ExpiringQuery['per']>, cursor: PageCursors = {}) {
  return queryOptions({
    queryKey: dashboardKeys.expiring({ order, page, per, ...cursor }),
    queryFn: ({ signal }) => api.GET('/api/users/expiring', { params: { query: { order, page, per, ...cursor } }, signal }),
  });
}

export function useExpiring(order: SortOrder, page: number, per: NonNullable<ExpiringQuery['per']>, cursor?: PageCursors) {
  return useQuery({ ...expiringQuery(order, page, per, cursor), placeholderData: keepPreviousData });
}

/**
 * One-month flash renew (costs max_connections credits; 409 INSUFFICIENT_CREDITS), keyed per intent
 * (the line). On success: reloads the balance, the expirations table and the dashboard figures.
 */
export function useFlashRenew() {
  const qc = useQueryClient();
  return useIntentMutation({
    mutationFn: ({ id }: { id: number }, idempotencyKey) => api.POST('/api/users/{id}/renew', { params: { path: { id } }, body: { months: 1 }, idempotencyKey }),
    onSuccess: () => Promise.all([reloadProfile(), qc.invalidateQueries({ queryKey: userKeys.all() }), qc.invalidateQueries({ queryKey: dashboardKeys.all() })]),
  });
}

/** The 10 newest movies or series of the catalogue (GET /vods/latest); asked only once a button chose the type. */
export function useLatestContent(type: LatestType | null) {
  return useQuery({
    queryKey: dashboardKeys.latestOf(type ?? 'movie'),
    // silent: the block shows its own error alert
    queryFn: ({ signal }) => api.GET('/api/vods/latest', { params: { query: { type: type ?? 'movie' } }, signal, silent: true }).then((r) => r.data),
    enabled: type !== null,
    staleTime: 60_000,
  });
}
