import { isIP } from 'node:net';
import { validation } from '../../http/errors.ts';
import { networkMatcher } from './addresses.ts';
import { OutboundError, checkUrl } from './safe-fetch.ts';

/**
 * A URL an account gives for the panel to call (a webhook endpoint, a WhatsApp gateway): https, or
 * http to an address OUTBOUND_ALLOW_NETWORKS permits; at most 500 characters once written out. A
 * refusal is a 400 on `field`. (Where it resolves is checked again at every call: lib/ssrf/safe-fetch.ts.)
 */
export function outboundUrl(allowNetworks: readonly string[], raw: string, field: string): string {
  let url: URL;
  try {
    url = checkUrl(raw.trim());
  } catch (err) {
    throw validation(field, err instanceof OutboundError ? err.message : 'not a valid URL');
  }
  if (url.href.length > 500) throw validation(field, 'at most 500 characters once written out');
  if (url.protocol === 'http:') {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!isIP(host) || !networkMatcher(allowNetworks)(host)) throw validation(field, 'must be https');
  }
  return url.href;
}
