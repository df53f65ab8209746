import { COUNT_COLUMNS } from '../../db/migrations/039_reports.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError, validation } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { dayOfIso, dayStart, firstDayOfMonth, isoOfDay, localDay, mondayOf, monthOfDay } from '../../lib/calendar.ts';
import { findVisibleReseller } from '../resellers/service.ts';
import * as repo from './repo.ts';
import type { Counts } from './tally.ts';

export { type TalliedChange, type TallyEntry, entriesOf, tally } from './tally.ts';

// The business over time: sales, renewals, credits, PIX and expiries by day, week or month of the
// panel's time zone, for the caller's subtree or one sub-reseller's, read from the kept counts
// (tally.ts), never from the lines or the log.

export type Bucket = 'day' | 'week' | 'month';
export const MAX_BUCKETS = 400;

export interface Period {
  from?: string;
  to?: string;
  bucket?: Bucket;
}

const zero = (): Counts => Object.fromEntries(COUNT_COLUMNS.map((c) => [c, 0])) as Counts;
const addTo = (sum: Counts, row: Partial<Counts>) => {
  for (const c of COUNT_COLUMNS) sum[c] += row[c] ?? 0;
};

/** The days asked for (default: the last 30 days to today), checked. */
function days(q: Period, today: number): { from: number; to: number } {
  const parse = (field: 'from' | 'to', fallback: number) => {
    const raw = q[field];
    if (raw === undefined) return fallback;
    const day = dayOfIso(raw);
    if (day === undefined) throw validation(field, 'must be a date YYYY-MM-DD');
    return day;
  };
  const to = parse('to', today);
  const from = parse('from', to - 29);
  if (from > to) throw validation('from', 'must not be after to');
  return { from, to };
}

/** The bucket a day falls in, as its first day (not before `from`). */
function bucketStart(day: number, bucket: Bucket, from: number): number {
  const start = bucket === 'day' ? day : bucket === 'week' ? mondayOf(day) : firstDayOfMonth(monthOfDay(day));
  return Math.max(start, from);
}

/** The scope a caller reads: everything for admins, else its subtree; `resellerId` must be one the caller may see (404). */
async function scopeOf({ database }: Deps, actor: AuthUser, resellerId?: number): Promise<repo.Scope> {
  if (resellerId === undefined) return actor.type === 'admin' ? 0 : actor.id;
  if (!(await findVisibleReseller(database.db, actor, resellerId, true))) throw appError('NOT_FOUND', { params: { what: 'Reseller' } });
  return resellerId;
}

/** Whole months inside [from, to] before `beforeMonth`, as month numbers (undefined: none). */
function wholeMonths(from: number, to: number, beforeMonth: number): repo.DayRange | undefined {
  let first = monthOfDay(from);
  if (firstDayOfMonth(first) < from) first++;
  let last = Math.min(monthOfDay(to), beforeMonth - 1);
  if (firstDayOfMonth(last + 1) - 1 > to) last--;
  return first <= last ? { from: first, to: last } : undefined;
}

/** [from, to] less the days of `months`. */
function daysOutside(from: number, to: number, months: repo.DayRange | undefined): repo.DayRange[] {
  if (!months) return [{ from, to }];
  const ranges = [{ from, to: firstDayOfMonth(months.from) - 1 }, { from: firstDayOfMonth(months.to + 1), to }];
  return ranges.filter((r) => r.from <= r.to);
}

export async function sales(deps: Deps, actor: AuthUser, q: Period & { reseller_id?: number }) {
  const tz = deps.config.timeZone;
  const now = nowSec();
  const today = localDay(now, tz);
  const { from, to } = days(q, today);
  const bucket = q.bucket ?? 'day';
  const starts: number[] = [];
  for (let d = from; d <= to; d = nextBucket(d, bucket)) {
    starts.push(bucketStart(d, bucket, from));
    if (starts.length > MAX_BUCKETS) throw appError('RANGE_TOO_LARGE', { params: { max: MAX_BUCKETS } });
  }
  const scope = await scopeOf(deps, actor, q.reseller_id);
  const db = deps.database.db;

  // Whole months before this one are read from the month rows when the buckets are months; the
  // rest by day (expiries of days to come are kept too: they are left out below).
  const months = bucket === 'month' ? wholeMonths(from, to, monthOfDay(today)) : undefined;
  const [dayRows, monthRows, coming] = await Promise.all([
    repo.dayRows(db, scope, daysOutside(from, to, months)),
    months ? repo.monthRows(db, scope, months.from, months.to) : [],
    from <= today && today <= to ? repo.comingExpiries(db, scope, now, dayStart(now, tz, 1)) : 0,
  ]);

  const series = starts.map((start) => ({ start, counts: zero() }));
  const index = new Map(starts.map((s, i) => [s, i]));
  for (const row of dayRows) {
    // only expiries already past: none of days to come, and today's less those still to come
    if (row.day > today) row.expired = 0;
    else if (row.day === today) row.expired -= coming;
    addTo(series[index.get(bucketStart(row.day, bucket, from))!]!.counts, row);
  }
  for (const row of monthRows) addTo(series[index.get(bucketStart(firstDayOfMonth(row.month), bucket, from))!]!.counts, row);
  const totals = zero();
  for (const s of series) addTo(totals, s.counts);
  return { from: isoOfDay(from), to: isoOfDay(to), bucket, time_zone: tz, series: series.map((s) => ({ start: isoOfDay(s.start), ...s.counts })), totals };
}

function nextBucket(day: number, bucket: Bucket): number {
  if (bucket === 'day') return day + 1;
  if (bucket === 'week') return mondayOf(day) + 7;
  return firstDayOfMonth(monthOfDay(day) + 1);
}

/** The caller's direct sub-resellers, each with its whole subtree's figures, best first by credits spent. */
export async function topResellers(deps: Deps, actor: AuthUser, q: Omit<Period, 'bucket'> & { limit?: number }) {
  const today = localDay(nowSec(), deps.config.timeZone);
  const { from, to } = days(q, today);
  if (to - from + 1 > MAX_BUCKETS * 31) throw appError('RANGE_TOO_LARGE', { params: { max: MAX_BUCKETS } });
  // no expiries here: every whole month can come from the month rows
  const months = wholeMonths(from, to, Number.MAX_SAFE_INTEGER);
  return repo.topResellers(deps.database.db, actor.id, daysOutside(from, to, months), months, q.limit ?? 10);
}
