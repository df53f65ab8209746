import { Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PageMeta } from '../../api/types';
import { Pager } from '../Pager';
import { type ResponsiveColumn, ResponsiveTable, type SortStatus } from './ResponsiveTable';
import type { TableState } from './useTableState';
import { LoadErrorAlert } from '../LoadErrorAlert';

export interface ListTableProps<T> {
  /**
   * Columns; give `sortable: true` to columns whose accessor is a server order_by field, `visibleFrom`
   * to low-value ones and `card` roles for the phone cards (see ResponsiveTable).
   */
  columns: ResponsiveColumn<T>[];
  /** The list query (its data is `{ data, meta }`). */
  query: UseQueryResult<{ data: T[]; meta: PageMeta }>;
  /** URL state from useTableState. */
  table: TableState<object>;
  idAccessor?: keyof T & string;
  /** Text shown when there are no rows (defaults to common.noRecords). */
  emptyText?: string;
  testId?: string;
  rowTestId?: (record: T) => string;
}

/**
 * Paged server list bound to the URL: ResponsiveTable (cards on phones) + shared Pager, with loading,
 * empty and error (with retry) states. Sorting writes `order_by=field,asc|desc`.
 * Usage: <ListTable columns={cols} query={listQuery} table={table} />
 */
export function ListTable<T>({ columns, query, table, idAccessor, emptyText, testId, rowTestId }: ListTableProps<T>) {
  const { t } = useTranslation();
  const records = query.data?.data ?? [];
  const meta = query.data?.meta;
  // Without a current order no column shows the arrow, but clicking a sortable header still sorts.
  const sortStatus: SortStatus = table.sort
    ? { columnAccessor: table.sort.field, direction: table.sort.direction }
    : { columnAccessor: '', direction: 'asc' };

  return (
    <Stack gap="sm" data-testid={testId}>
      {query.isError && (
        <LoadErrorAlert onRetry={() => query.refetch()} testId="table-error" />
      )}
      <ResponsiveTable<T>
        columns={columns}
        records={records}
        idAccessor={idAccessor}
        fetching={query.isFetching}
        loading={query.isPending && !query.isError}
        noRecordsText={query.isError ? t('common.loadError') : (emptyText ?? t('common.noRecords'))}
        sortStatus={sortStatus}
        onSortStatusChange={(s) => table.setSort({ field: String(s.columnAccessor), direction: s.direction })}
        rowTestId={rowTestId}
      />
      {meta && (
        <Pager
          page={table.page}
          pages={meta.pages}
          total={meta.total}
          capped={meta.capped}
          per={table.per}
          next={meta.next}
          prev={meta.prev}
          onPageChange={table.setPage}
          onPerChange={table.setPer}
        />
      )}
    </Stack>
  );
}
