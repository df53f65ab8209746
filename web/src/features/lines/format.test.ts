import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { addDuration, lineStatus, monthsRemaining, randomCredential, systemLabel } from './format';

const now = dayjs('2026-03-10T12:00:00').unix();

describe('status badge (docs/decisions.md)', () => {
  it('blocked wins, then expired, else active', () => {
    expect(lineStatus({ enabled: 0, exp_date: now + 100 }, now)).toBe('blocked');
    expect(lineStatus({ enabled: 0, exp_date: now - 100 }, now)).toBe('blocked');
    expect(lineStatus({ enabled: 1, exp_date: now }, now)).toBe('expired');
    expect(lineStatus({ enabled: 1, exp_date: now + 1 }, now)).toBe('active');
  });
});

describe('helpers', () => {
  it('months remaining are 30-day months rounded up, 0 once expired', () => {
    expect(monthsRemaining(now + 1, now)).toBe(1);
    expect(monthsRemaining(now + 30 * 86_400, now)).toBe(1);
    expect(monthsRemaining(now + 30 * 86_400 + 1, now)).toBe(2);
    expect(monthsRemaining(now, now)).toBe(0);
  });

  it('adds a package duration like the server: hours and days exactly, months on the calendar', () => {
    const utc = (iso: string) => Date.parse(`${iso}Z`) / 1000;
    expect(addDuration(utc('2026-01-31T10:00:00'), 1, 'months')).toBe(utc('2026-02-28T10:00:00'));
    expect(addDuration(utc('2028-01-31T10:00:00'), 1, 'months')).toBe(utc('2028-02-29T10:00:00'));
    expect(addDuration(utc('2026-11-15T10:00:00'), 3, 'months')).toBe(utc('2027-02-15T10:00:00'));
    expect(addDuration(utc('2026-03-01T00:00:00'), 1, 'years')).toBe(utc('2027-03-01T00:00:00'));
    expect(addDuration(1000, 2, 'days')).toBe(1000 + 2 * 86_400);
    expect(addDuration(1000, 4, 'hours')).toBe(1000 + 4 * 3600);
  });

  it('generates 6 to 9 letters/digits', () => {
    for (let i = 0; i < 200; i++) expect(randomCredential()).toMatch(/^[a-z0-9]{6,9}$/);
  });

  it('labels systems', () => {
    expect([1, 2, 3, 9].map(systemLabel)).toEqual(['HTTP', 'P2P', 'P2P BR', 'P2P BR']);
  });
});
