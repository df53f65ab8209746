import type { ExpiringQuery, LatestType } from '../../api/types';

/** The dashboard's query keys (its public file: other features import its keys from here only). */
export const dashboardKeys = {
  all: () => ['dashboard'] as const,
  /** Dashboard: GET /dashboard. */
  counters: () => ['dashboard', 'counters'] as const,
  /** SalesReport of the last 30 days by day: GET /reports/sales (the activity chart). */
  activity: () => ['dashboard', 'activity'] as const,
  /** LinePage: GET /users/expiring. */
  expiring: (params: Required<Pick<ExpiringQuery, 'order' | 'page' | 'per'>> & Pick<ExpiringQuery, 'after' | 'before'>) => ['dashboard', 'expiring', params] as const,
  /** Every latest-content list (the catalogue import refreshes them). */
  latestContent: () => ['latestContent'] as const,
  /** LatestItem[]: GET /vods/latest (the `data` array). */
  latestOf: (type: NonNullable<LatestType>) => ['latestContent', type] as const,
};
