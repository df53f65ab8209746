import type { ReactNode } from 'react';

type Breakpoint = 'xs' | 'sm' | 'md' | 'lg' | 'xl';

/** The list's order: a column's accessor (the API's `order_by` field) and a direction. */
export interface SortStatus {
  columnAccessor: string;
  direction: 'asc' | 'desc';
}

/** One column of ResponsiveTable, for both its layouts: the wide table and the phone cards. */
export interface ResponsiveColumn<T> {
  /** The record's field shown when there is no `render`; a unique name otherwise (and the sort field). */
  accessor: string;
  title?: ReactNode;
  render?: (record: T, index: number) => ReactNode;
  /** The header sorts the list by `accessor` (an `order_by` field of the API). */
  sortable?: boolean;
  width?: number | string;
  textAlign?: 'left' | 'center' | 'right';
  noWrap?: boolean;
  /** Long unbroken text (a username, a logged value) wraps anywhere rather than widening the table. */
  breakWords?: boolean;
  /** Table layout: the column shows from this breakpoint up (low-value columns on narrower screens). */
  visibleFrom?: Breakpoint;
  /** Card layout: 'title' heads the card, 'actions' sits top right, 'field' (default) is a label/value pair, 'none' is left out. */
  card?: 'title' | 'actions' | 'field' | 'none';
  /** Card label when the column's title is empty, abbreviated or not text. */
  cardLabel?: string;
  /** Card fields are sorted by this (default 0; column order among equals): -1 puts what matters most first. */
  cardOrder?: number;
}

export interface ResponsiveTableProps<T> {
  columns: ResponsiveColumn<T>[];
  records: T[];
  idAccessor?: (keyof T & string) | ((record: T) => string | number);
  /** A request is running (first load: skeletons; later: dimmed rows). */
  fetching?: boolean;
  loading?: boolean;
  noRecordsText: string;
  sortStatus?: SortStatus;
  onSortStatusChange?: (s: SortStatus) => void;
  testId?: string;
  /** data-testid of a row (the `tr` or the card). */
  rowTestId?: (record: T) => string;
  minHeight?: number;
}

export const cellValue = <T,>(col: ResponsiveColumn<T>, record: T, index: number): ReactNode =>
  col.render ? col.render(record, index) : ((record as Record<string, unknown>)[col.accessor] as ReactNode);

export const keyOf = <T,>(record: T, idAccessor: ResponsiveTableProps<T>['idAccessor']): string | number =>
  typeof idAccessor === 'function' ? idAccessor(record) : ((record as Record<string, unknown>)[idAccessor ?? 'id'] as string | number);
