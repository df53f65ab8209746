import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { DEFAULT_PER, type PageCursors, type PerOption } from '../pagerMath';
import { formatOrderBy, mergeSearch, parseOrderBy, type SortState, TABLE_KEYS, type TableSearch } from './tableSearch';

type Raw = Record<string, unknown>;

export interface TableState<F> {
  page: number;
  per: PerOption;
  /** Raw `field,asc|desc` or undefined. */
  orderBy: string | undefined;
  /** Parsed order, falling back to `defaultSort`. */
  sort: SortState | undefined;
  /** The filter part of the search params (everything except page/per/order_by). */
  filters: Partial<F>;
  /** Query for the list endpoint: page, per, order_by, the page's cursor and the filters. */
  apiQuery: Partial<F> & { page: number; per: PerOption; order_by?: string; after?: string; before?: string };
  /** `cursor`: the shown page's meta.next or meta.prev for a neighbouring page (pagerMath pageCursor) */
  setPage: (page: number, cursor?: PageCursors) => void;
  setPer: (per: number) => void;
  setSort: (sort: SortState) => void;
  /** Sets (or with undefined, removes) filters; drops the page param. */
  setFilters: (patch: Partial<F>) => void;
  removeFilter: (key: keyof F & string) => void;
  clearFilters: () => void;
}

/**
 * URL-bound list state. Pass the same (module-level, stable) validator the route uses in `validateSearch`
 * (built with `tableSearch(...)`), e.g.
 *   const table = useTableState(packagesSearch, { field: 'id', direction: 'asc' });
 *   useQuery({ queryKey: packageKeys.list(table.apiQuery), queryFn: () => api.GET('/api/admin/packages', { params: { query: table.apiQuery } }) })
 */
export function useTableState<S extends TableSearch>(validate: (raw: Raw) => S, defaultSort?: SortState): TableState<Omit<S, keyof TableSearch>> {
  type F = Omit<S, keyof TableSearch>;
  const raw = useSearch({ strict: false }) as Raw;
  const navigate = useNavigate();
  const search = useMemo(() => validate(raw), [validate, raw]);

  const update = useCallback(
    (patch: Raw) => {
      void navigate({ to: '.', search: ((prev: Raw) => mergeSearch(prev, patch)) as never });
    },
    [navigate],
  );

  return useMemo(() => {
    const filters: Raw = {};
    for (const [k, v] of Object.entries(search)) if (!(TABLE_KEYS as readonly string[]).includes(k)) filters[k] = v;
    const page = search.page ?? 1;
    const per = search.per ?? DEFAULT_PER;
    return {
      page,
      per,
      orderBy: search.order_by,
      sort: parseOrderBy(search.order_by) ?? defaultSort,
      filters: filters as Partial<F>,
      apiQuery: { ...(filters as Partial<F>), page, per, order_by: search.order_by, after: search.after, before: search.before },
      setPage: (p: number, cursor: PageCursors = {}) => update({ page: p, after: cursor.after, before: cursor.before }),
      setPer: (n: number) => update({ per: n }),
      setSort: (s: SortState) => update({ order_by: formatOrderBy(s) }),
      setFilters: (patch: Partial<F>) => update(patch as Raw),
      removeFilter: (key: keyof F & string) => update({ [key]: undefined }),
      clearFilters: () => update(Object.fromEntries(Object.keys(filters).map((k) => [k, undefined]))),
    };
  }, [search, update, defaultSort]);
}
