import { afterEach, describe, expect, it } from 'vitest';
import { calendarDaysUntil, expiryInfo, expiryText } from './expiry';

const ORIGINAL_TZ = process.env.TZ;
afterEach(() => {
  process.env.TZ = ORIGINAL_TZ;
});

/** Epoch seconds of a wall-clock time in the current TZ. */
const local = (y: number, m: number, d: number, h = 0, min = 0) => Math.floor(new Date(y, m - 1, d, h, min).getTime() / 1000);

describe('expiry by calendar day (browser time zone)', () => {
  it('reads "today" until midnight and "tomorrow" right after it, whatever the hours left', () => {
    process.env.TZ = 'America/Sao_Paulo';
    const now = local(2026, 3, 10, 12);
    expect(expiryInfo(local(2026, 3, 10, 23, 59), now)).toMatchObject({ kind: 'today', days: 0, color: 'pink', expired: false });
    expect(expiryInfo(now + 1, now)).toMatchObject({ kind: 'today', days: 0 });
    // 12h30 away, but on the next calendar day: the old 24-hour count said "today".
    expect(expiryInfo(local(2026, 3, 11, 0, 30), now)).toMatchObject({ kind: 'tomorrow', days: 1, color: 'yellow' });
    // 35 hours away: still tomorrow (the old count said "em 1 dia" for both).
    expect(expiryInfo(local(2026, 3, 11, 23, 0), now)).toMatchObject({ kind: 'tomorrow', days: 1 });
    expect(expiryInfo(local(2026, 3, 12, 0, 1), now)).toMatchObject({ kind: 'inDays', days: 2 });
  });

  it('counts from the local day of now: at 23:59 a line ending at 00:01 is tomorrow', () => {
    process.env.TZ = 'America/Sao_Paulo';
    const now = local(2026, 3, 10, 23, 59);
    expect(expiryInfo(local(2026, 3, 11, 0, 1), now)).toMatchObject({ kind: 'tomorrow', days: 1 });
    expect(expiryInfo(local(2026, 3, 10, 23, 59) + 30, now)).toMatchObject({ kind: 'today' });
  });

  it('colours by days left: >7 green, 4-7 purple, 1-3 yellow, today pink', () => {
    process.env.TZ = 'America/Sao_Paulo';
    const now = local(2026, 3, 10, 12);
    expect(expiryInfo(local(2026, 3, 18, 8), now)).toMatchObject({ color: 'green', days: 8 });
    expect(expiryInfo(local(2026, 3, 17, 8), now)).toMatchObject({ color: 'grape', days: 7 });
    expect(expiryInfo(local(2026, 3, 14, 8), now)).toMatchObject({ color: 'grape', days: 4 });
    expect(expiryInfo(local(2026, 3, 13, 23), now)).toMatchObject({ color: 'yellow', days: 3 });
  });

  it('is expired from exp_date on, in the past and at the very second', () => {
    process.env.TZ = 'America/Sao_Paulo';
    const now = local(2026, 3, 10, 12);
    expect(expiryInfo(now, now)).toEqual({ expired: true, days: 0, color: 'red', kind: 'expired' });
    expect(expiryInfo(now - 60, now)).toMatchObject({ kind: 'expired' });
    expect(expiryInfo(now - 40 * 86_400, now)).toMatchObject({ kind: 'expired', color: 'red' });
    expect(calendarDaysUntil(now - 86_400, now)).toBe(-1);
  });

  it('uses the browser time zone: the same instants are another day in Tokyo', () => {
    // 2026-03-10 14:00 UTC -> 2026-03-11 02:00 UTC: both 10 March in São Paulo (11:00, 23:00),
    // but 10 March 23:00 and 11 March 11:00 in Tokyo.
    const now = Date.UTC(2026, 2, 10, 14) / 1000;
    const exp = Date.UTC(2026, 2, 11, 2) / 1000;
    process.env.TZ = 'America/Sao_Paulo';
    expect(expiryInfo(exp, now).kind).toBe('today');
    process.env.TZ = 'Asia/Tokyo';
    expect(expiryInfo(exp, now).kind).toBe('tomorrow');
    process.env.TZ = 'UTC';
    expect(expiryInfo(exp, now).kind).toBe('tomorrow');
  });

  it('counts calendar days across a daylight-saving change (São Paulo, 4 Nov 2018 had no midnight)', () => {
    process.env.TZ = 'America/Sao_Paulo';
    const now = local(2018, 11, 3, 12);
    expect(calendarDaysUntil(local(2018, 11, 4, 1, 30), now)).toBe(1);
    expect(calendarDaysUntil(local(2018, 11, 5, 0, 30), now)).toBe(2);
    expect(calendarDaysUntil(local(2019, 2, 17, 12), local(2019, 2, 16, 12))).toBe(1); // DST end: a 25-hour day
  });

  it('names the text key', () => {
    expect(expiryText({ expired: false, days: 0, color: 'pink', kind: 'today' })).toEqual(['expiry.today']);
    expect(expiryText({ expired: false, days: 1, color: 'yellow', kind: 'tomorrow' })).toEqual(['expiry.tomorrow']);
    expect(expiryText({ expired: false, days: 5, color: 'grape', kind: 'inDays' })).toEqual(['expiry.inDays', { count: 5 }]);
    expect(expiryText({ expired: true, days: 0, color: 'red', kind: 'expired' })).toEqual(['expiry.expired']);
  });
});
