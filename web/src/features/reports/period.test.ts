import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { customBucket, reportRange } from './period';
import { reportsSearch } from './search';

const NOW = dayjs('2025-03-15T10:00:00');

describe('report periods', () => {
  it('turns the presets into days and bars (30 days by day by default)', () => {
    expect(reportRange({}, NOW)).toEqual({ from: '2025-02-14', to: '2025-03-15', bucket: 'day' });
    expect(reportRange({ period: '7d' }, NOW)).toEqual({ from: '2025-03-09', to: '2025-03-15', bucket: 'day' });
    expect(reportRange({ period: '90d' }, NOW)).toEqual({ from: '2024-12-16', to: '2025-03-15', bucket: 'week' });
    // 12 bars: from the first of the month 11 months ago
    expect(reportRange({ period: '12m' }, NOW)).toEqual({ from: '2024-04-01', to: '2025-03-15', bucket: 'month' });
  });

  it('draws a custom range by day up to 62 days, by week up to ~400 weeks, else by month', () => {
    const bucket = (from: string, to: string) => customBucket(dayjs(from), dayjs(to));
    expect(bucket('2025-01-01', '2025-01-01')).toBe('day');
    expect(bucket('2025-01-01', '2025-03-03')).toBe('day'); // 62 days
    expect(bucket('2025-01-01', '2025-03-04')).toBe('week');
    expect(bucket('2018-01-01', '2025-08-24')).toBe('week'); // 2 793 days: 400 weeks at most
    expect(bucket('2018-01-01', '2025-08-25')).toBe('month');
    expect(reportRange({ period: 'custom', from: '2025-01-01', to: '2025-01-31' }, NOW)).toEqual({ from: '2025-01-01', to: '2025-01-31', bucket: 'day' });
  });

  it('keeps the period in the URL: the default left out, a custom one only with both days (in order)', () => {
    expect(reportsSearch({})).toEqual({});
    expect(reportsSearch({ period: '30d' })).toEqual({});
    expect(reportsSearch({ period: '12m', from: '2025-01-01' })).toEqual({ period: '12m' });
    expect(reportsSearch({ period: 'custom', from: '2025-01-01' })).toEqual({});
    expect(reportsSearch({ period: 'custom', from: '2025-02-30', to: '2025-03-01' })).toEqual({});
    expect(reportsSearch({ period: 'custom', from: '2025-03-01', to: '2025-01-01' })).toEqual({ period: 'custom', from: '2025-01-01', to: '2025-03-01' });
    expect(reportsSearch({ period: 'week', reseller: '12' })).toEqual({ reseller: 12 });
    expect(reportsSearch({ reseller: '0' })).toEqual({});
    expect(reportsSearch({ reseller: 'x' })).toEqual({});
  });
});
