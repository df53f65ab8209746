import dayjs from 'dayjs';

/** Pure helpers of the lines pages (status, months, system, credentials). Expiry, WhatsApp and formats live in lib/. */

export const DAY_SECONDS = 86_400;
export const MONTH_SECONDS = 30 * DAY_SECONDS;

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

/**
 * A package duration added to an epoch-seconds instant, as the server does (lines `addDuration`):
 * hours and days exactly; months and years follow the calendar in UTC (Jan 31 + 1 month = Feb 28/29).
 */
export function addDuration(fromSec: number, amount: number, unit: string): number {
  const d = new Date(fromSec * 1000);
  switch (unit) {
    case 'hours':
      return fromSec + amount * 3600;
    case 'days':
      return fromSec + amount * DAY_SECONDS;
    case 'years':
      d.setUTCFullYear(d.getUTCFullYear() + amount);
      return Math.floor(d.getTime() / 1000);
    default: {
      const day = d.getUTCDate();
      d.setUTCDate(1);
      d.setUTCMonth(d.getUTCMonth() + amount);
      const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
      d.setUTCDate(Math.min(day, last));
      return Math.floor(d.getTime() / 1000);
    }
  }
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

/** 'YYYY-MM-DD' of a picker value (string or Date), or null. */
export function toDay(v: string | Date | null | undefined): string | null {
  if (!v) return null;
  const d = dayjs(v);
  return d.isValid() ? d.format('YYYY-MM-DD') : null;
}
