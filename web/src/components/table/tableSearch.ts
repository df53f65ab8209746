import { DEFAULT_PER, isPerOption, type PerOption } from '../pagerMath';

/**
 * URL state of a paged list: `?page=2&per=20&order_by=id,desc&<filters>`, and the cursor the page
 * was reached by (`after` / `before`, the previous page's meta.next / meta.prev), so a reload asks
 * the same cheap query. Defaults (page 1, per 10, no order) are left out of the URL.
 */
export interface TableSearch {
  page?: number;
  per?: PerOption;
  order_by?: string;
  after?: string;
  before?: string;
}

export type SortDirection = 'asc' | 'desc';
export interface SortState {
  field: string;
  direction: SortDirection;
}

export const TABLE_KEYS = ['page', 'per', 'order_by', 'after', 'before'] as const;

type Raw = Record<string, unknown>;

/** Query-string text filter: trimmed, undefined when empty. Numbers (from JSON parsers) become text. */
export function textParam(v: unknown, maxLength = 100): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const s = String(v).trim().slice(0, maxLength);
  return s === '' ? undefined : s;
}

/** Query-string integer filter (>= min), undefined when absent or invalid. */
export function intParam(v: unknown, min = 0): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isInteger(n) && n >= min ? n : undefined;
}

/** Query-string enum filter: one of `allowed`, else undefined. */
export function enumParam<T extends string>(v: unknown, allowed: readonly T[]): T | undefined {
  const s = textParam(v);
  return s !== undefined && (allowed as readonly string[]).includes(s) ? (s as T) : undefined;
}

/** Parses `field,asc|desc`; with `sortable`, only those fields are accepted. */
export function parseOrderBy(v: unknown, sortable?: readonly string[]): SortState | undefined {
  const s = textParam(v, 60);
  const m = s ? /^([A-Za-z_][\w.]*),(asc|desc)$/.exec(s) : null;
  if (!m?.[1] || !m[2]) return undefined;
  if (sortable && !sortable.includes(m[1])) return undefined;
  return { field: m[1], direction: m[2] as SortDirection };
}

export function formatOrderBy(sort: SortState): string {
  return `${sort.field},${sort.direction}`;
}

/** The page/per/order_by part of a list's search params. */
export function parseTableParams(raw: Raw, sortable?: readonly string[]): TableSearch {
  const page = intParam(raw.page, 1);
  const per = intParam(raw.per, 1);
  const order = parseOrderBy(raw.order_by, sortable);
  const shown = page && page > 1 ? page : undefined;
  return {
    page: shown,
    per: isPerOption(per) && per !== DEFAULT_PER ? per : undefined,
    order_by: order ? formatOrderBy(order) : undefined,
    // (a cursor only with a page past the first; the server ignores one that does not fit)
    after: shown ? textParam(raw.after, 500) : undefined,
    before: shown ? textParam(raw.before, 500) : undefined,
  };
}

/**
 * Builds a route `validateSearch` for a paged list.
 * Example: validateSearch: tableSearch(['id', 'username'], (raw) => ({ username: textParam(raw.username) }))
 */
export function tableSearch<F extends object = Record<never, never>>(sortable?: readonly string[], parseFilters?: (raw: Raw) => F) {
  return (raw: Raw): TableSearch & F => dropUndefined({ ...(parseFilters?.(raw) ?? ({} as F)), ...parseTableParams(raw, sortable) });
}

/** Removes undefined/empty values so they disappear from the URL. */
export function dropUndefined<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out as T;
}

/**
 * Next search params after a change. Any change but a page change drops `page`
 * (a new filter, per-page or order starts again on page 1); every change drops the cursor unless
 * it brings its own (a cursor belongs to the page it was given with).
 */
export function mergeSearch(prev: Raw, patch: Raw): Raw {
  const pageOnly = Object.keys(patch).every((k) => k === 'page' || k === 'after' || k === 'before');
  const { after: _after, before: _before, ...kept } = prev;
  const next: Raw = { ...kept, ...patch };
  if (!pageOnly) delete next.page;
  if (next.page === 1 || next.page === undefined) {
    delete next.page;
    delete next.after;
    delete next.before;
  }
  if (next.per === DEFAULT_PER) delete next.per;
  return dropUndefined(next);
}

/** Plain `?a=1&b=x` query strings (no JSON quoting), used by the router for every route. */
export function parseSearchString(search: string): Raw {
  const out: Raw = {};
  for (const [k, v] of new URLSearchParams(search.startsWith('?') ? search.slice(1) : search)) out[k] = v;
  return out;
}

export function stringifySearchObject(search: Raw): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}
