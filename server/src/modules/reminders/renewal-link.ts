import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { signingKey } from '../twofactor/service.ts';

// {link_renovacao}: a signed link to the customer page for one line, valid 7 days. The token is
// `<line id>.<expiry>.<signature>`; only the server can make one, and it names nothing else.

export const RENEWAL_LINK_SECONDS = 7 * 86_400;

const sign = (key: Buffer, lineId: number, until: number) => createHmac('sha256', key).update(`${lineId}.${until}`).digest('base64url').slice(0, 32);

export async function renewalToken(deps: Deps, lineId: number, now: number): Promise<string> {
  const until = now + RENEWAL_LINK_SECONDS;
  return `${lineId}.${until}.${sign(await signingKey(deps, 'renewal-link'), lineId, until)}`;
}

/** The line a token opens, or undefined when it is forged, malformed or past its 7 days. */
export async function lineOfToken(deps: Deps, token: string, now: number): Promise<number | undefined> {
  const m = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m) return undefined;
  const lineId = Number(m[1]);
  const until = Number(m[2]);
  const expected = Buffer.from(sign(await signingKey(deps, 'renewal-link'), lineId, until));
  if (!timingSafeEqual(expected, Buffer.from(m[3]!)) || until < now) return undefined;
  return lineId;
}

/** The customer page's address with the token; empty when PUBLIC_URL is unset (no address to give). */
export async function renewalLink(deps: Deps, lineId: number, now: number): Promise<string> {
  if (!deps.config.publicUrl) return '';
  return `${deps.config.publicUrl.replace(/\/+$/, '')}/minha-conta?t=${await renewalToken(deps, lineId, now)}`;
}
