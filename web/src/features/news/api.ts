import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

/** News item: id 1 is the dashboard notice, id 2 shows in the short-link modal. */
export interface NewsItem {
  id: number;
  title: string;
  /** Plain text (the old panel stored it URL-encoded); never HTML. */
  body: string;
  /** 0..10. */
  level: number;
  /** 1 active, 0 inactive. */
  status: number;
}

export type NewsInput = Omit<NewsItem, 'id'>;

/** The dashboard notice. */
export const DASHBOARD_NEWS_ID = 1;
/** Shown in the short-link modal. */
export const LINK_NEWS_ID = 2;

/**
 * GET /news (the one home of this query: the dashboard, the link modal and the editor share it).
 * Admins get every item, everyone else only the active ones. Silent: each page shows its own error.
 */
export const newsQuery = queryOptions({
  queryKey: queryKeys.news(),
  queryFn: ({ signal }) => api<{ data: NewsItem[] }>('/news', { signal, silent: true }).then((r) => r.data),
  retry: false,
});

export function useNews() {
  return useQuery(newsQuery);
}

/** PUT /news/{id} (admin). Errors are shown by the caller (silent). */
export function useSaveNews() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: NewsItem) => api<NewsItem>(`/news/${id}`, { method: 'PUT', body, silent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.news() }),
  });
}
