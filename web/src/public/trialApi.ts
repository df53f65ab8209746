import { call } from './api';

/** GET /api/public/trial-pages/:slug: a reseller's free-trial page. */
export interface TrialPageInfo {
  slug: string;
  reseller_name: string;
  /** the reseller's WhatsApp, as they entered it */
  whatsapp: string | null;
  message: string;
  package_name: string;
  duration: number;
  duration_in: string;
}

export const trialPage = (slug: string, signal?: AbortSignal) => call<TrialPageInfo>('GET', `/api/public/trial-pages/${encodeURIComponent(slug)}`, { signal });

/** POST /api/public/trials: the server creates the trial line and sends its access by WhatsApp (202). */
export const requestTrial = (slug: string, whatsapp: string) => call<{ status: 'sent' }>('POST', '/api/public/trials', { body: { slug, whatsapp } });
