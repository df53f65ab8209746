import { afterEach, describe, expect, it } from 'vitest';
import { cut, formatDateTime, formatDay, formatDelta, formatElapsed, formatMoney, formatNumber } from './format';

const ORIGINAL_TZ = process.env.TZ;
afterEach(() => {
  process.env.TZ = ORIGINAL_TZ;
});

describe('pt-BR formats', () => {
  it('formats numbers the Brazilian way', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(null)).toBe('0');
    expect(formatNumber(1500)).toBe('1.500');
    expect(formatNumber(1234567)).toBe('1.234.567');
    expect(formatNumber(-20)).toBe('-20');
  });

  it('formats cents as reais', () => {
    // Intl puts a no-break space between R$ and the figure
    expect(formatMoney(123450).replace(/\s/g, ' ')).toBe('R$ 1.234,50');
    expect(formatMoney(0).replace(/\s/g, ' ')).toBe('R$ 0,00');
    expect(formatMoney(5).replace(/\s/g, ' ')).toBe('R$ 0,05');
  });

  it('shows a report day as DD/MM/YYYY', () => {
    expect(formatDay('2025-03-05')).toBe('05/03/2025');
  });

  it('signs deltas', () => {
    expect(formatDelta(1500)).toBe('+1.500');
    expect(formatDelta(-20)).toBe('−20');
    expect(formatDelta(0)).toBe('0');
  });

  it('shows dates as DD/MM/YYYY HH:mm in the browser time zone', () => {
    process.env.TZ = 'America/Sao_Paulo';
    expect(formatDateTime(Date.UTC(2026, 0, 5, 2, 7) / 1000)).toBe('04/01/2026 23:07');
    process.env.TZ = 'UTC';
    expect(formatDateTime(Date.UTC(2026, 0, 5, 2, 7) / 1000)).toBe('05/01/2026 02:07');
    expect(formatDateTime(null)).toBe('-');
    expect(formatDateTime(0)).toBe('-');
  });

  it('cuts at 25 characters', () => {
    expect(cut('a'.repeat(25))).toBe('a'.repeat(25));
    expect(cut('a'.repeat(26))).toBe(`${'a'.repeat(25)}…`);
    expect(cut(null)).toBe('');
  });
});

describe('formatElapsed', () => {
  it('shows hh:mm:ss, with days past 24 hours', () => {
    expect(formatElapsed(0)).toBe('00:00:00');
    expect(formatElapsed(-5)).toBe('00:00:00');
    expect(formatElapsed(3725)).toBe('01:02:05');
    expect(formatElapsed(86_400 + 61)).toBe('1d 00:01:01');
  });
});
