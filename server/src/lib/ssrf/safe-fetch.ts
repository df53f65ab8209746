import { lookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { isPublicAddress, networkMatcher } from './addresses.ts';

/**
 * The one way the server fetches a URL someone else chose (playlist imports, line migration): the
 * SSRF guard of docs/integrations.md, "SSRF guard".
 *
 * - http and https only, no credentials in the URL;
 * - the host is resolved once and EVERY address must be public (addresses.ts), unless listed in
 *   `allow` (OUTBOUND_ALLOW_NETWORKS: tests' stand-ins on 127.0.0.1); the connection goes to the
 *   address that was checked, so a DNS answer that changes in between (rebinding) cannot redirect it;
 * - numeric host tricks (2130706433, 0x7f.1, 127.1, [::ffff:127.0.0.1]) are normalised by the URL
 *   parser first, so they are judged as the address they mean;
 * - redirects are never followed (a redirect is how a public URL would point inside);
 * - one time limit for the whole exchange and a cap on the bytes read.
 */

export type OutboundFailure = 'invalid_url' | 'scheme' | 'credentials' | 'address' | 'dns' | 'redirect' | 'status' | 'timeout' | 'too_large' | 'network';

export class OutboundError extends Error {
  constructor(
    public reason: OutboundFailure,
    message: string,
    /** the other side's HTTP status, when it answered */
    public status?: number,
  ) {
    super(message);
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface SafeFetchOptions {
  /** the whole exchange, connection to last byte (default 5 s) */
  timeoutMs?: number;
  /** answers longer than this are refused (default 1 MiB) */
  maxBytes?: number;
  /** addresses or CIDRs reachable although not public (OUTBOUND_ALLOW_NETWORKS) */
  allow?: readonly string[];
  headers?: Record<string, string>;
  /** GET (default), or POST with `body` (webhooks) */
  method?: 'GET' | 'POST';
  body?: string;
  /** sees each chunk of the answer as it arrives; throwing stops the download with that error */
  onChunk?: (chunk: Buffer) => void;
  /** host name resolution; tests replace it to play DNS answers */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
}

export interface SafeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const systemResolve = (host: string) => lookup(host, { all: true, verbatim: true });

/** Parses and checks a URL without fetching it (the rules above that need no DNS). */
export function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('invalid_url', 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('scheme', 'only http and https URLs are fetched');
  if (url.username || url.password) throw new OutboundError('credentials', 'URLs with a user name or password are not fetched');
  return url;
}

/** Every address the host stands for, each checked; throws unless all are allowed. */
async function resolveChecked(url: URL, allowed: (ip: string) => boolean, resolve: SafeFetchOptions['resolve']): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (resolve ?? systemResolve)(host);
    } catch {
      throw new OutboundError('dns', `host ${host} not found`);
    }
  }
  if (addresses.length === 0) throw new OutboundError('dns', `host ${host} not found`);
  const refused = addresses.find((a) => !allowed(a.address));
  if (refused) throw new OutboundError('address', `${host} is not a public address (${refused.address})`);
  return addresses;
}

export async function safeFetch(raw: string, opts: SafeFetchOptions = {}): Promise<SafeResponse> {
  const url = checkUrl(raw);
  const timeoutMs = opts.timeoutMs ?? 5000;
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const listed = networkMatcher(opts.allow ?? []);
  const allowed = (ip: string) => isPublicAddress(ip) || listed(ip);
  const deadline = AbortSignal.timeout(timeoutMs);
  const addresses = await Promise.race([resolveChecked(url, allowed, opts.resolve), aborted(deadline, timeoutMs)]);

  // The socket connects to the addresses checked above, never to a second answer of the resolver.
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SafeResponse>((resolve, reject) => {
    const method = opts.method ?? 'GET';
    const headers = { 'user-agent': 'reseller-panel', ...(opts.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(opts.body)) }), ...opts.headers };
    const req = client.request(url, { method, agent: false, lookup: pinned, signal: deadline, headers }, (res) => {
      const status = res.statusCode ?? 0;
      const fail = (err: OutboundError) => {
        reject(err);
        res.destroy();
      };
      if (status >= 300 && status < 400) return fail(new OutboundError('redirect', `the server answered a redirect (${status}); redirects are not followed`, status));
      if (status < 200 || status >= 300) return fail(new OutboundError('status', `the server answered ${status}`, status));
      if (Number(res.headers['content-length'] ?? 0) > maxBytes) return fail(tooLarge(maxBytes));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return fail(tooLarge(maxBytes));
        try {
          opts.onChunk?.(chunk);
        } catch (err) {
          reject(err);
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (err) => reject(networkError(err, deadline, timeoutMs)));
    });
    req.on('error', (err) => reject(err instanceof OutboundError ? err : networkError(err, deadline, timeoutMs)));
    req.end(opts.body);
  });
}

const tooLarge = (maxBytes: number) => new OutboundError('too_large', `the answer is larger than ${maxBytes} bytes`);

function networkError(err: Error, deadline: AbortSignal, timeoutMs: number): OutboundError {
  if (deadline.aborted) return new OutboundError('timeout', `no complete answer within ${timeoutMs} ms`);
  return new OutboundError('network', `could not fetch: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
}

function aborted(signal: AbortSignal, timeoutMs: number): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener('abort', () => reject(new OutboundError('timeout', `no complete answer within ${timeoutMs} ms`)), { once: true });
  });
}
