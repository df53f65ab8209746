/** Per-page choices of every paged list (docs/rules.md, "Limits and list conventions"). */
export const PER_OPTIONS = [10, 20, 30, 50, 100] as const;
export type PerOption = (typeof PER_OPTIONS)[number];
export const DEFAULT_PER: PerOption = 10;

export function isPerOption(n: unknown): n is PerOption {
  return typeof n === 'number' && (PER_OPTIONS as readonly number[]).includes(n);
}

/**
 * Page numbers to show as buttons: at most `max` (default 7) consecutive pages,
 * centred on `page` when possible, always inside 1..pages. Empty when pages < 1.
 */
export function pageButtons(page: number, pages: number, max = 7): number[] {
  if (!Number.isFinite(pages) || pages < 1) return [];
  const total = Math.floor(pages);
  const current = Math.min(Math.max(1, Math.floor(page) || 1), total);
  const count = Math.min(max, total);
  let start = current - Math.floor((count - 1) / 2);
  start = Math.max(1, Math.min(start, total - count + 1));
  return Array.from({ length: count }, (_, i) => start + i);
}

/** A list page's cursors (the API's meta.next / meta.prev). */
export interface PageCursors {
  after?: string;
  before?: string;
}

/**
 * How far from the shown page a cursor still serves (the pager's neighbouring buttons): the
 * server reads such a page from the cursor (a keyset seek) instead of skipping every row ahead of
 * it. A jump farther asks the page by number alone.
 */
export const CURSOR_PAGES = 3;

/** The cursor to ask page `target` with, seen from the page `meta` describes: its next for pages after it, its prev for pages before. */
export function pageCursor(target: number, meta: { page: number; next?: string; prev?: string } | undefined): PageCursors {
  if (!meta) return {};
  const d = target - meta.page;
  if (d >= 1 && d <= CURSOR_PAGES && meta.next) return { after: meta.next };
  if (d <= -1 && d >= -CURSOR_PAGES && meta.prev) return { before: meta.prev };
  return {};
}

/** True when `target` is a page that can be navigated to (pages outside 1..pages are ignored). */
export function isValidPage(target: number, pages: number): boolean {
  return Number.isInteger(target) && target >= 1 && target <= pages;
}

/**
 * Whether the pager is shown: not for an empty list ("Página 0 de 0 · 0 registro" says nothing the
 * table's empty state does not), nor for a single page when the list asks so.
 */
export function pagerShown(p: { pages: number; total: number; capped?: boolean; hideWhenSingle?: boolean }): boolean {
  if (p.total <= 0 && !p.capped) return false;
  return !(p.hideWhenSingle && p.pages <= 1);
}
