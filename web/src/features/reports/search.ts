import { dropUndefined, enumParam, intParam, textParam } from '../../components/table/tableSearch';
import { isDay } from '../../lib/days';

/** The periods of the picker; `custom` uses the from/to days. No dayjs here: this runs in the entry chunk. */
export const PERIODS = ['7d', '30d', '90d', '12m', 'custom'] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = '30d';

/** The reports page's URL state. */
export interface ReportsSearch {
  /** Absent means the default (the last 30 days). */
  period?: Period;
  /** With period=custom: YYYY-MM-DD days, from <= to. */
  from?: string;
  to?: string;
  /** A sub-reseller's id: its subtree only (admins and masters). */
  reseller?: number;
}

const MAX_ID = 2_147_483_647;

/** validateSearch of /reports: a custom period needs both days (swapped when reversed), else it falls back to the default. */
export function reportsSearch(raw: Record<string, unknown>): ReportsSearch {
  const period = enumParam(raw.period, PERIODS);
  const from = textParam(raw.from, 10);
  const to = textParam(raw.to, 10);
  const custom = period === 'custom' && isDay(from) && isDay(to);
  const [lo, hi] = custom && from > to ? [to, from] : [from, to];
  const reseller = intParam(raw.reseller, 1);
  return dropUndefined({
    period: period === DEFAULT_PERIOD || (period === 'custom' && !custom) ? undefined : period,
    from: custom ? lo : undefined,
    to: custom ? hi : undefined,
    reseller: reseller !== undefined && reseller <= MAX_ID ? reseller : undefined,
  });
}
