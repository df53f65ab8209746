import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { validation } from '../../http/errors.ts';
import { isPublicAddress, networkMatcher } from './addresses.ts';
import { OutboundError, checkUrl } from './safe-fetch.ts';

/** How long entry waits for DNS before letting a name through (every call checks it again). */
const LOOKUP_MS = 2000;

export type Resolve = (host: string) => Promise<{ address: string }[]>;

const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/**
 * A URL an account gives for the panel to call (a webhook endpoint, a WhatsApp gateway): https, or
 * http to an address OUTBOUND_ALLOW_NETWORKS permits; at most 500 characters once written out; and
 * not to an address the SSRF guard would refuse at every call: a literal private address, or a name
 * that resolves to one (`localhost`). A name that does not resolve now is let through: the guard
 * checks it again at each call (lib/ssrf/safe-fetch.ts). A refusal is a 400 on `field`.
 */
export async function outboundUrl(allowNetworks: readonly string[], raw: string, field: string, resolve: Resolve = systemResolve): Promise<string> {
  let url: URL;
  try {
    url = checkUrl(raw.trim());
  } catch (err) {
    throw validation(field, err instanceof OutboundError ? err.message : 'not a valid URL', 'NOT_URL');
  }
  if (url.href.length > 500) throw validation(field, 'at most 500 characters once written out', 'TOO_LONG', { max: 500 });
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const listed = networkMatcher(allowNetworks);
  if (url.protocol === 'http:' && !(isIP(host) && listed(host))) throw validation(field, 'must be https', 'NOT_HTTPS');
  const reachable = (ip: string) => isPublicAddress(ip) || listed(ip);
  const addresses = isIP(host) ? [host] : await resolvedOrNone(host, resolve);
  const refused = addresses.find((ip) => !reachable(ip));
  if (refused) throw validation(field, `${host} is not a public address${refused === host ? '' : ` (${refused})`}`, 'NOT_PUBLIC');
  return url.href;
}

/** The name's addresses, or none when it does not resolve within LOOKUP_MS. */
async function resolvedOrNone(host: string, resolve: Resolve): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<[]>((done) => {
    timer = setTimeout(() => done([]), LOOKUP_MS);
  });
  try {
    return (await Promise.race([resolve(host), late])).map((a) => a.address);
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}
