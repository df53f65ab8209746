import dayjs from 'dayjs';

/** Pure helpers of the lines pages (expiry badge, status, texts, credentials, WhatsApp link). */

export const DAY_SECONDS = 86_400;
export const MONTH_SECONDS = 30 * DAY_SECONDS;

export type ExpiryColor = 'green' | 'grape' | 'yellow' | 'pink' | 'red';

export interface ExpiryInfo {
  expired: boolean;
  /** Calendar days from today to the expiry day (local time); 0 = expires today. */
  days: number;
  color: ExpiryColor;
  /** i18n key under users.expiry. */
  expiryKind: 'today' | 'inDays' | 'expired';
  /** The clock icon: the line expires today. */
  clock: boolean;
}

/**
 * Expiry badge (SPEC 4): expired when exp_date is not in the future; else by days left:
 * more than 7 green, 4-7 purple, 1-3 yellow (warning), 0 or fewer pink.
 */
export function expiryInfo(expDate: number, nowSec: number): ExpiryInfo {
  if (expDate <= nowSec) return { expired: true, days: 0, color: 'red', expiryKind: 'expired', clock: false };
  const days = Math.max(0, dayjs.unix(expDate).startOf('day').diff(dayjs.unix(nowSec).startOf('day'), 'day'));
  const color: ExpiryColor = days > 7 ? 'green' : days >= 4 ? 'grape' : days >= 1 ? 'yellow' : 'pink';
  return { expired: false, days, color, expiryKind: days === 0 ? 'today' : 'inDays', clock: days === 0 };
}

export type LineStatus = 'blocked' | 'expired' | 'active';

/** Status badge (docs/decisions.md): blocked -> Bloqueado, else expired -> Expirado, else Ativo. */
export function lineStatus(line: { enabled: number; exp_date: number }, nowSec: number): LineStatus {
  if (line.enabled !== 1) return 'blocked';
  if (line.exp_date <= nowSec) return 'expired';
  return 'active';
}

export const STATUS_COLOR: Record<LineStatus, string> = { active: 'green', expired: 'red', blocked: 'gray' };

/** Whole 30-day months left, rounded up; 0 once expired. */
export function monthsRemaining(expDate: number, nowSec: number): number {
  return expDate > nowSec ? Math.ceil((expDate - nowSec) / MONTH_SECONDS) : 0;
}

/** Cuts a text at `max` characters with an ellipsis; null/empty -> ''. */
export function cut(text: string | null | undefined, max = 25): string {
  const s = (text ?? '').trim();
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** 1 HTTP, 2 P2P, 3 (or other) P2P BR. */
export function systemLabel(system: number): string {
  return system === 1 ? 'HTTP' : system === 2 ? 'P2P' : 'P2P BR';
}

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** Random credential of 6 to 9 letters/digits (no look-alike characters), like the server's. */
export function randomCredential(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  const length = 6 + (bytes[0]! % 4);
  let out = '';
  for (let i = 1; i <= length; i++) out += ALPHABET[bytes[i]! % ALPHABET.length];
  return out;
}

/** Credentials the server accepts: letters, digits and _ . @ - (up to 50). */
export const CREDENTIAL_RE = /^[A-Za-z0-9_.@-]*$/;
/** WhatsApp as typed: digits, spaces, + ( ) - (up to 20). */
export const WHATSAPP_RE = /^[0-9+() -]*$/;

/**
 * WhatsApp digits for wa.me with the Brazilian country code 55: 'ddd+número' gets 55 in front;
 * a number already written with 55 (12-13 digits) is kept. Undefined without a usable number.
 */
export function whatsappNumber(raw: string | null | undefined): string | undefined {
  const digits = (raw ?? '').replace(/\D/g, '').replace(/^0+/, '');
  if (digits.length < 8) return undefined;
  if (digits.startsWith('55') && digits.length >= 12) return digits;
  return `55${digits}`;
}

export function whatsappUrl(number: string, text: string): string {
  return `https://wa.me/${number}?text=${encodeURIComponent(text)}`;
}

/** News body as stored (may be URL-encoded); shown as plain text, never HTML. */
export function decodeNewsBody(body: string): string {
  try {
    return decodeURIComponent(body);
  } catch {
    return body;
  }
}

/** 'YYYY-MM-DD' of a picker value (string or Date), or null. */
export function toDay(v: string | Date | null | undefined): string | null {
  if (!v) return null;
  const d = dayjs(v);
  return d.isValid() ? d.format('YYYY-MM-DD') : null;
}
