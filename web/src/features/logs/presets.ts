/** Date presets of the log filter; `custom` uses explicit from/to days. No dayjs here: search.ts runs in the entry chunk. */
export const DATE_PRESETS = ['today', 'yesterday', 'last7', 'last30', 'thisMonth', 'lastMonth'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];
export type DateChoice = DatePreset | 'custom';
export const DEFAULT_PRESET: DatePreset = 'last7';

/** A real YYYY-MM-DD day (the same days parseDay of dates.ts accepts). */
export function isDay(v: string | undefined): v is string {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const [y, m, d] = [Number(v.slice(0, 4)), Number(v.slice(5, 7)), Number(v.slice(8, 10))];
  const date = new Date(y, m - 1, d);
  return date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d;
}
