import { OutboundError } from '../../lib/ssrf/safe-fetch.ts';

// Why a gateway failed, in a few words the web translates (reminders.failure.<reason>): a test
// message or a connection check names one of these, with the gateway's HTTP status when it answered.

export const FAILURE_REASONS = ['not_configured', 'refused', 'timeout', 'dns', 'address', 'unauthorized', 'not_found', 'server_error', 'unexpected', 'not_connected', 'key_lost', 'other'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** A gateway's HTTP answer that is no success. */
export function reasonOfStatus(status: number): FailureReason {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status >= 500) return 'server_error';
  return 'unexpected';
}

/** A failed HTTP call (safeFetch's OutboundError, or anything else thrown). */
export function reasonOfFetch(err: unknown): FailureReason {
  if (!(err instanceof OutboundError)) return 'other';
  if (err.status !== undefined) return reasonOfStatus(err.status);
  if (err.reason === 'timeout') return 'timeout';
  if (err.reason === 'dns') return 'dns';
  if (err.reason === 'address') return 'address';
  if (err.reason === 'network') return /ECONNREFUSED/.test(err.message) ? 'refused' : /ETIMEDOUT/.test(err.message) ? 'timeout' : /ENOTFOUND|EAI_AGAIN/.test(err.message) ? 'dns' : 'other';
  return 'other';
}

/** A failed SMTP exchange (nodemailer's error: `code`, and `responseCode` when the server replied). */
export function reasonOfSmtp(err: unknown): FailureReason {
  const e = err as { code?: string; responseCode?: number; message?: string };
  if (e.code === 'EAUTH' || e.responseCode === 535) return 'unauthorized';
  if (e.responseCode !== undefined) return e.responseCode >= 500 ? 'unexpected' : 'server_error';
  if (/ECONNREFUSED/.test(e.message ?? '')) return 'refused';
  if (e.code === 'ETIMEDOUT' || /timeout/i.test(e.message ?? '')) return 'timeout';
  if (e.code === 'EDNS' || /ENOTFOUND|EAI_AGAIN/.test(e.message ?? '')) return 'dns';
  return 'other';
}
