import { describe, expect, it } from 'vitest';
import { isPerOption, isValidPage, pageButtons, pageCursor, pagerShown } from './pagerMath';

describe('pageButtons', () => {
  it('shows every page when there are 7 or fewer', () => {
    expect(pageButtons(1, 1)).toEqual([1]);
    expect(pageButtons(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(7, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('shows at most 7 buttons centred on the current page', () => {
    expect(pageButtons(10, 20)).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(pageButtons(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageButtons(3, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageButtons(20, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
    expect(pageButtons(18, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
  });

  it('clamps out-of-range current pages and handles no pages', () => {
    expect(pageButtons(99, 3)).toEqual([1, 2, 3]);
    expect(pageButtons(-4, 10)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageButtons(1, 0)).toEqual([]);
    expect(pageButtons(1, Number.NaN)).toEqual([]);
  });

  it('honours a smaller maximum', () => {
    expect(pageButtons(5, 10, 5)).toEqual([3, 4, 5, 6, 7]);
    expect(pageButtons(5, 10, 4)).toEqual([4, 5, 6, 7]);
  });
});

describe('isValidPage / isPerOption', () => {
  it('ignores pages outside 1..pages', () => {
    expect(isValidPage(0, 5)).toBe(false);
    expect(isValidPage(6, 5)).toBe(false);
    expect(isValidPage(2.5, 5)).toBe(false);
    expect(isValidPage(5, 5)).toBe(true);
  });

  it('accepts only the fixed per-page options', () => {
    expect(isPerOption(10)).toBe(true);
    expect(isPerOption(100)).toBe(true);
    expect(isPerOption(25)).toBe(false);
    expect(isPerOption('10')).toBe(false);
  });
});

describe('pagerShown', () => {
  it('hides the pager of an empty list (the table says it is empty)', () => {
    expect(pagerShown({ pages: 0, total: 0 })).toBe(false);
    expect(pagerShown({ pages: 0, total: 0, capped: false })).toBe(false);
    expect(pagerShown({ pages: 1, total: 1 })).toBe(true);
    expect(pagerShown({ pages: 1000, total: 10_000, capped: true })).toBe(true);
  });

  it('hides a single page only when asked', () => {
    expect(pagerShown({ pages: 1, total: 3, hideWhenSingle: true })).toBe(false);
    expect(pagerShown({ pages: 2, total: 13, hideWhenSingle: true })).toBe(true);
  });
});

describe('pageCursor', () => {
  const meta = { page: 10, next: 'n', prev: 'p' };
  it("asks the neighbouring pages from the shown page's cursors, a jump by number alone", () => {
    expect(pageCursor(11, meta)).toEqual({ after: 'n' });
    expect(pageCursor(13, meta)).toEqual({ after: 'n' });
    expect(pageCursor(9, meta)).toEqual({ before: 'p' });
    expect(pageCursor(7, meta)).toEqual({ before: 'p' });
    expect(pageCursor(14, meta)).toEqual({});
    expect(pageCursor(1, meta)).toEqual({});
    expect(pageCursor(11, { page: 10 })).toEqual({});
    expect(pageCursor(11, undefined)).toEqual({});
  });
});
