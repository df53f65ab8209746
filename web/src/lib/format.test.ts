import { afterEach, describe, expect, it } from 'vitest';
import { cut, formatDateTime, formatDelta, formatDuration, formatNumber } from './format';

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

describe('durations', () => {
  it('shows seconds as hh:mm:ss, hours past a day included', () => {
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(59)).toBe('00:00:59');
    expect(formatDuration(3661)).toBe('01:01:01');
    expect(formatDuration(90_000)).toBe('25:00:00');
    expect(formatDuration(-5)).toBe('00:00:00');
  });
});
