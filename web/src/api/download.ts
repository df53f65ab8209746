import { useMutation } from '@tanstack/react-query';
import { currentLang } from '../i18n';
import { api, queryString } from './client';

type Query = Record<string, string | number | boolean | null | undefined>;

/**
 * Downloads an export file with the page's filters. A browser download cannot send the bearer
 * header, and a Blob would hold a million-row file in the phone's memory: the server gives a
 * one-time link (60 s, bound to this session and this URL) and the browser streams it to disk.
 */
export function useDownloadExport() {
  return useMutation({
    mutationFn: async ({ path, query }: { path: string; query: Query }) => {
      const { page: _p, per: _n, order_by: _o, ...filters } = query;
      const qs = queryString({ ...filters, lang: currentLang(), tz_offset: -new Date().getTimezoneOffset() });
      const { url } = await api.POST('/api/exports/token', { body: { path: `/api${path}${qs ? `?${qs}` : ''}` } });
      window.location.assign(url);
    },
  });
}
