/**
 * How long a line has left, in calendar days of the browser's time zone (docs/decisions.md "Expiry
 * badge"): a line ending at 23:00 today reads "Expira hoje", one ending at 00:30 tomorrow "Expira
 * amanhã", whatever the hours in between. Expired once exp_date is not in the future.
 */

export type ExpiryColor = 'green' | 'grape' | 'yellow' | 'pink' | 'red';
export type ExpiryKind = 'expired' | 'today' | 'tomorrow' | 'inDays';

export interface ExpiryInfo {
  expired: boolean;
  /** Calendar days from today to the expiry day (local time); 0 = ends today, 0 once expired. */
  days: number;
  /** Expiry colours: more than 7 days green, 4-7 purple, 1-3 yellow, today pink, expired red. */
  color: ExpiryColor;
  kind: ExpiryKind;
}

const DAY_MS = 86_400_000;

/** Local calendar day as a day count (DST-proof: the local date, not the elapsed hours). */
function localDay(epochSeconds: number): number {
  const d = new Date(epochSeconds * 1000);
  return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / DAY_MS;
}

/** Calendar days from `nowSec`'s local day to `expDate`'s local day (negative when it is in the past). */
export function calendarDaysUntil(expDate: number, nowSec: number): number {
  return localDay(expDate) - localDay(nowSec);
}

export function expiryInfo(expDate: number, nowSec: number): ExpiryInfo {
  if (expDate <= nowSec) return { expired: true, days: 0, color: 'red', kind: 'expired' };
  const days = Math.max(0, calendarDaysUntil(expDate, nowSec));
  const color: ExpiryColor = days > 7 ? 'green' : days >= 4 ? 'grape' : days >= 1 ? 'yellow' : 'pink';
  const kind: ExpiryKind = days === 0 ? 'today' : days === 1 ? 'tomorrow' : 'inDays';
  return { expired: false, days, color, kind };
}

/** i18n key and options of the badge text ("Expira hoje", "Expira amanhã", "Expira em 3 dias", "Expirado"). */
export function expiryText(info: ExpiryInfo): [key: string, options?: { count: number }] {
  return info.kind === 'inDays' ? ['expiry.inDays', { count: info.days }] : [`expiry.${info.kind}`];
}
