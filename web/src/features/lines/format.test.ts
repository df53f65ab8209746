import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { lineStatus, monthsRemaining, randomCredential, systemLabel } from './format';

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

  it('generates 6 to 9 letters/digits', () => {
    for (let i = 0; i < 200; i++) expect(randomCredential()).toMatch(/^[a-z0-9]{6,9}$/);
  });

  it('labels systems', () => {
    expect([1, 2, 3, 9].map(systemLabel)).toEqual(['HTTP', 'P2P', 'P2P BR', 'P2P BR']);
  });
});
