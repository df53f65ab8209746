import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';

/** The dashboard notice. */
export const DASHBOARD_NEWS_ID = 1;
/** Shown in the short-link modal. */
export const LINK_NEWS_ID = 2;

/** NewsItem[]: GET /news (the `data` array). */
/** The news' query keys. */
export const newsKeys = {
  /** NewsItem[]: GET /news. */
  all: () => ['news'] as const,
};

/**
 * GET /news (the one home of this query: the dashboard, the link modal and the editor share it).
 * Admins get every item, everyone else only the active ones. Silent: each page shows its own error.
 */
export const newsQuery = queryOptions({
  queryKey: newsKeys.all(),
  queryFn: ({ signal }) => api.GET('/api/news', { signal, silent: true }).then((r) => r.data),
  retry: false,
});

export function useNews() {
  return useQuery(newsQuery);
}

