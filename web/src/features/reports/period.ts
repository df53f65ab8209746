import dayjs, { type Dayjs } from 'dayjs';
import type { SalesReport } from '../../api/types';
import { DAY_FORMAT } from '../../lib/days';
import { DEFAULT_PERIOD, type ReportsSearch } from './search';

export type Bucket = SalesReport['bucket'];

export interface ReportRange {
  /** YYYY-MM-DD, both included. */
  from: string;
  to: string;
  bucket: Bucket;
}

/** A custom range is drawn by day up to this many days (two months of bars)... */
export const MAX_DAY_BUCKETS = 62;
/** ...then by week while the weeks stay within the server's 400 bars (N days touch at most N/7 + 1 weeks), then by month. */
export const MAX_WEEK_DAYS = 7 * 399;

/** The bars of a custom range: day up to 62 days, week up to ~400 weeks, else month. */
export function customBucket(from: Dayjs, to: Dayjs): Bucket {
  const days = to.diff(from, 'day') + 1;
  if (days <= MAX_DAY_BUCKETS) return 'day';
  if (days <= MAX_WEEK_DAYS) return 'week';
  return 'month';
}

/**
 * The days and bars the page asks for. Days are the browser's (the panel's users are in Brazil, as
 * its time zone): 7 and 30 days by day, 90 days by week, 12 months by month from the first day of
 * the month 11 months ago, so each bar is a whole month but the current one.
 */
export function reportRange(search: Pick<ReportsSearch, 'period' | 'from' | 'to'>, now: Dayjs = dayjs()): ReportRange {
  const today = now.startOf('day');
  const to = today.format(DAY_FORMAT);
  switch (search.period ?? DEFAULT_PERIOD) {
    case '7d':
      return { from: today.subtract(6, 'day').format(DAY_FORMAT), to, bucket: 'day' };
    case '90d':
      return { from: today.subtract(89, 'day').format(DAY_FORMAT), to, bucket: 'week' };
    case '12m':
      return { from: today.subtract(11, 'month').startOf('month').format(DAY_FORMAT), to, bucket: 'month' };
    case 'custom':
      if (search.from && search.to) return { from: search.from, to: search.to, bucket: customBucket(dayjs(search.from), dayjs(search.to)) };
      return reportRange({}, now);
    default:
      return { from: today.subtract(29, 'day').format(DAY_FORMAT), to, bucket: 'day' };
  }
}

/** A bar's label under the chart: 05/03 for days and weeks (the week's Monday), mar/25 for months (in the UI language). */
export function bucketLabel(start: string, bucket: Bucket): string {
  return bucket === 'month' ? dayjs(start).format('MMM/YY') : dayjs(start).format('DD/MM');
}
