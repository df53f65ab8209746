import { enumParam, intParam, tableSearch, textParam } from '../../components/table/tableSearch';
import { isDay } from '../../lib/days';
import { DATE_PRESETS, type DateChoice } from './presets';

/** Sortable fields of GET /api/logs. */
export const LOG_SORT_FIELDS = ['id', 'created_at'] as const;

/** Filters of the log page as they live in the query string. */
export interface LogFilters {
  /** type_log (from /logs/getoptions). */
  type?: string;
  /** Comma-separated actions. */
  actions?: string;
  /** Reseller id (who the entry belongs to). */
  reseller?: number;
  /** Target reseller id. */
  toreseller?: number;
  /** Line username (exact, case-insensitive on the server). */
  user?: string;
  /** Date preset; absent means the default (last 7 days). */
  preset?: DateChoice;
  /** Custom range (with preset=custom): YYYY-MM-DD days in the browser's time zone. */
  from?: string;
  to?: string;
}

export const LOG_FILTER_KEYS = ['type', 'actions', 'reseller', 'toreseller', 'user', 'preset'] as const;

const MAX_ID = 2_147_483_647;
const idParam = (v: unknown) => {
  const n = intParam(v, 1);
  return n !== undefined && n <= MAX_ID ? n : undefined;
};
const word = (v: unknown, max: number) => {
  const s = textParam(v, max);
  return s && /^[\w-]+$/.test(s) ? s : undefined;
};
const actionsParam = (v: unknown) => {
  const list = (textParam(v, 1000) ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter((a) => /^\w{1,40}$/.test(a));
  return list.length > 0 ? [...new Set(list)].join(',') : undefined;
};

/** validateSearch of /logs: page, per, order_by and the filters (custom dates need a valid from day). */
export const logsSearch = tableSearch<LogFilters>(LOG_SORT_FIELDS, (raw) => {
  const preset = enumParam(raw.preset, [...DATE_PRESETS, 'custom'] as const);
  const from = isDay(textParam(raw.from, 10)) ? textParam(raw.from, 10) : undefined;
  const to = isDay(textParam(raw.to, 10)) ? textParam(raw.to, 10) : undefined;
  const custom = preset === 'custom' && from !== undefined;
  return {
    type: word(raw.type, 30),
    actions: actionsParam(raw.actions),
    reseller: idParam(raw.reseller),
    toreseller: idParam(raw.toreseller),
    user: textParam(raw.user, 50),
    // The default preset stays out of the URL; a custom choice without a valid start falls back to it.
    preset: preset === 'last7' || (preset === 'custom' && !custom) ? undefined : preset,
    from: custom ? from : undefined,
    to: custom ? to : undefined,
  };
});
