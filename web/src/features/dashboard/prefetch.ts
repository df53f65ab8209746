import type { QueryClient } from '@tanstack/react-query';
import { DEFAULT_PER } from '../../components/pagerMath';
import { profileQuery } from '../../api/profile';
import { newsQuery } from '../../api/news';
import { dashboardActivityQuery, dashboardCountersQuery, expiringQuery } from './api';

/** The longest the dashboard waits for its data before it shows skeletons instead. */
const MAX_WAIT_MS = 1500;

/**
 * Loader of `/`: asks the API while the page's chunks download, so the page renders once with
 * its figures, notice and expirations in place (no layout shift, earlier paint). Errors are left
 * to the page's own queries (they retry on mount). The dashboard's own figures are fetched when
 * stale (a line change in this tab marks them so), not shown from the cache first.
 */
export function prefetchDashboard(queryClient: QueryClient): Promise<unknown> {
  void import('./ActivityChart');
  const all = Promise.allSettled([
    queryClient.ensureQueryData(profileQuery),
    queryClient.ensureQueryData(newsQuery),
    queryClient.fetchQuery(dashboardCountersQuery),
    queryClient.fetchQuery(expiringQuery('asc', 1, DEFAULT_PER)),
    queryClient.fetchQuery(dashboardActivityQuery),
  ]);
  return Promise.race([all, new Promise((resolve) => setTimeout(resolve, MAX_WAIT_MS))]);
}
