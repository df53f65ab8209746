import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import type { Paged } from '../../api/errors';
import { reloadProfile } from '../auth/profile';

/** GET /dashboard: every figure scoped to the caller's subtree. */
export interface DashboardData {
  resellers: number;
  users: number;
  users_active: number;
  users_activep2p: number;
  users_activehttp: number;
  users_online_of_resellers: number;
  users_online: number;
  conections_online: number;
  users_new: number;
  users_trial: number;
  users_trialp2p: number;
}

export interface ActivityDay {
  /** YYYY-MM-DD in the browser's time zone. */
  date: string;
  new_lines: number;
  credits_spent: number;
}

/** The fields of a line the expirations table uses. */
export interface ExpiringLine {
  id: number;
  username: string;
  password: string;
  /** Epoch seconds. */
  exp_date: number;
  master_username: string | null;
  whatsapp: string | null;
  max_connections: number;
}

export type SortOrder = 'asc' | 'desc';


export const dashboardCountersQuery = queryOptions({
  queryKey: queryKeys.dashboard.counters(),
  queryFn: ({ signal }) => api<DashboardData>('/dashboard', { signal }),
});

export function useDashboardCounters() {
  return useQuery(dashboardCountersQuery);
}

/** Minutes east of UTC, as the server's tz_offset expects. */
export function browserTzOffset(): number {
  return -new Date().getTimezoneOffset();
}

export function dashboardActivityQuery(tz = browserTzOffset()) {
  return queryOptions({
    queryKey: queryKeys.dashboard.activity(tz),
    queryFn: ({ signal }) => api<{ data: ActivityDay[] }>('/dashboard/activity', { query: { tz_offset: tz }, signal }),
  });
}

export function useDashboardActivity() {
  return useQuery({ ...dashboardActivityQuery(), select: (r) => r.data });
}

export function expiringQuery(order: SortOrder, page: number, per: number) {
  return queryOptions({
    queryKey: queryKeys.users.expiring({ order, page, per }),
    queryFn: ({ signal }) => api<Paged<ExpiringLine>>('/users/expiring', { query: { order, page, per }, signal }),
  });
}

export function useExpiring(order: SortOrder, page: number, per: number) {
  return useQuery({ ...expiringQuery(order, page, per), placeholderData: keepPreviousData });
}

/**
 * One-month flash renew (costs max_connections credits; 409 INSUFFICIENT_CREDITS).
 * On success: reloads the balance, the expirations table and the dashboard figures.
 */
export function useFlashRenew() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, key }: { id: number; key: string }) =>
      api<ExpiringLine>(`/users/${id}/renew`, { method: 'POST', body: { months: 1 }, idempotencyKey: key }),
    onSuccess: () => Promise.all([reloadProfile(), qc.invalidateQueries({ queryKey: queryKeys.users.all() }), qc.invalidateQueries({ queryKey: queryKeys.dashboard.all() })]),
  });
}
