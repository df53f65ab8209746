import { appError } from '../../http/errors.ts';
import { OutboundError } from './safe-fetch.ts';

// The SSRF guard: every fetch of a URL that someone else chose goes through safeFetch.
export { isPublicAddress } from './addresses.ts';
export { OutboundError, type SafeFetchOptions, type SafeResponse, checkUrl, safeFetch } from './safe-fetch.ts';

/** An outbound failure as the API answers it: our refusal is the caller's 400, the other side's failure a 502. */
export function outboundAppError(err: unknown, field: string): unknown {
  if (!(err instanceof OutboundError)) return err;
  if (['invalid_url', 'scheme', 'credentials', 'address'].includes(err.reason)) return appError('URL_NOT_ALLOWED', { field, params: { why: err.message } });
  return appError('UPSTREAM_ERROR', { params: { detail: err.message } });
}
