import dayjs, { type Dayjs } from 'dayjs';
import { DAY_FORMAT } from '../../lib/days';
import type { DatePreset } from './presets';

export { DATE_PRESETS, type DateChoice, type DatePreset, DEFAULT_PRESET } from './presets';

/** A day as YYYY-MM-DD (what the date picker and the query string use). */
export { DAY_FORMAT };

/** [start, end] of a preset in the browser's time zone; end is the last millisecond of its day. */
export function presetRange(preset: DatePreset, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const today = now.startOf('day');
  switch (preset) {
    case 'today':
      return [today, now.endOf('day')];
    case 'yesterday': {
      const y = today.subtract(1, 'day');
      return [y, y.endOf('day')];
    }
    case 'last7':
      return [today.subtract(6, 'day'), now.endOf('day')];
    case 'last30':
      return [today.subtract(29, 'day'), now.endOf('day')];
    case 'thisMonth':
      return [now.startOf('month'), now.endOf('month')];
    case 'lastMonth': {
      const m = now.subtract(1, 'month');
      return [m.startOf('month'), m.endOf('month')];
    }
  }
}

/** Parses a YYYY-MM-DD day in the browser's time zone; undefined when invalid. */
export function parseDay(v: string | undefined): Dayjs | undefined {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return undefined;
  const d = dayjs(v);
  return d.isValid() && d.format(DAY_FORMAT) === v ? d : undefined;
}

/** The range of a custom choice: from the start of `from` to the end of `to` (swapped when reversed). */
export function customRange(from: string | undefined, to: string | undefined): [Dayjs, Dayjs] | undefined {
  const a = parseDay(from);
  const b = parseDay(to ?? from);
  if (!a || !b) return undefined;
  const [lo, hi] = a.isAfter(b) ? [b, a] : [a, b];
  return [lo.startOf('day'), hi.endOf('day')];
}

/** `fromMs,toMs` for GET /logs?dates=. */
export function datesParam([from, to]: [Dayjs, Dayjs]): string {
  return `${from.valueOf()},${to.valueOf()}`;
}
