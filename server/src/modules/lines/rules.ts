import { randomBytes } from 'node:crypto';
import { appError } from '../../http/errors.ts';

export const DAY = 86_400;
export const MONTH = 30 * DAY; // "months remaining" counts 30-day months

/** Adds a package duration to an epoch-seconds instant; months and years follow the calendar. */
export function addDuration(fromSec: number, amount: number, unit: string): number {
  const d = new Date(fromSec * 1000);
  switch (unit) {
    case 'hours':
      return fromSec + amount * 3600;
    case 'days':
      return fromSec + amount * DAY;
    case 'years':
      d.setUTCFullYear(d.getUTCFullYear() + amount);
      return Math.floor(d.getTime() / 1000);
    default: {
      const day = d.getUTCDate();
      d.setUTCDate(1);
      d.setUTCMonth(d.getUTCMonth() + amount);
      const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
      d.setUTCDate(Math.min(day, last)); // Jan 31 + 1 month = Feb 28/29, not Mar 3
      return Math.floor(d.getTime() / 1000);
    }
  }
}

/** Whole months left before expiry, rounded up; 0 once expired. */
export function monthsRemaining(expDate: number, now: number): number {
  return expDate > now ? Math.ceil((expDate - now) / MONTH) : 0;
}

/** Renewals stack on a still-valid expiry, else start now; a trial turned paid starts its paid term now (the trial's remaining time is not added). */
export const renewalBase = (expDate: number, now: number, isTrial = false) => (isTrial ? now : Math.max(expDate, now));

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** Random credentials of 6 to 9 letters/digits (no look-alike characters). */
export function randomCredential(): string {
  // One call for all of it (a call per letter was ~20 per line created): the 32 letters take 5
  // bits of a byte each and the 4 lengths (6-9) 2 bits, so every choice stays uniform.
  const bytes = randomBytes(10);
  const length = 6 + (bytes[0] & 3);
  let out = '';
  for (let i = 1; i <= length; i++) out += ALPHABET[bytes[i] & 31];
  return out;
}

/**
 * Credentials for a new line or P2P account: the username given (409 USERNAME_TAKEN when `taken`
 * says so), else a generated one that is free; the password given, else a generated one.
 */
export async function uniqueCredentials(input: { username?: string; password?: string }, taken: (username: string) => Promise<boolean>) {
  let username = input.username?.trim();
  if (username) {
    if (await taken(username)) throw appError('USERNAME_TAKEN');
  } else {
    do username = randomCredential();
    while (await taken(username));
  }
  return { username, password: input.password?.trim() || randomCredential() };
}
