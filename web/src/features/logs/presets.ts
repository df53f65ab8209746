/** Date presets of the log filter; `custom` uses explicit from/to days. No dayjs here: search.ts runs in the entry chunk. */
export const DATE_PRESETS = ['today', 'yesterday', 'last7', 'last30', 'thisMonth', 'lastMonth'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];
export type DateChoice = DatePreset | 'custom';
export const DEFAULT_PRESET: DatePreset = 'last7';
