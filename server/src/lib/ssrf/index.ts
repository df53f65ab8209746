import { AppError } from '../../http/errors.ts';
import { OutboundError } from './safe-fetch.ts';

// The SSRF guard: every fetch of a URL that someone else chose goes through safeFetch.
export { isPublicAddress } from './addresses.ts';
export { OutboundError, type SafeFetchOptions, type SafeResponse, checkUrl, safeFetch } from './safe-fetch.ts';

/** An outbound failure as the API answers it: our refusal is the caller's 400, the other side's failure a 502. */
export function outboundAppError(err: unknown, field: string): unknown {
  if (!(err instanceof OutboundError)) return err;
  if (['invalid_url', 'scheme', 'credentials', 'address'].includes(err.reason)) return new AppError(400, 'URL_NOT_ALLOWED', `${field}: ${err.message}`, field);
  return new AppError(502, 'UPSTREAM_ERROR', err.message);
}
