import { currentLang } from '../i18n';
import { api, buildUrl } from './client';

type Query = Record<string, string | number | boolean | null | undefined>;

/**
 * Downloads an export file with the page's filters. A browser download cannot send the bearer
 * header, and a Blob would hold a million-row file in the phone's memory: the server gives a
 * one-time link (60 s, bound to this session and this URL) and the browser streams it to disk.
 */
export async function downloadExport(path: string, query: Query): Promise<void> {
  const { page: _p, per: _n, order_by: _o, ...filters } = query;
  const file = buildUrl(path, { ...filters, lang: currentLang(), tz_offset: -new Date().getTimezoneOffset() });
  const { url } = await api<{ url: string }>('/exports/token', { method: 'POST', body: { path: file } });
  window.location.assign(url);
}
