import 'mantine-datatable/styles.layer.css';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import type { ResponsiveTableProps } from './ResponsiveTable';

/** Marks the row-actions cell, so tests (and people) can check it is in view. */
const actionsCell = () => ({ 'data-row-actions': '' });

/** ResponsiveTable from the `sm` breakpoint up: a DataTable, loaded only on screens that show it. */
export default function WideTable<T>({ columns, records, idAccessor, fetching, noRecordsText, sortStatus, onSortStatusChange, testId, rowTestId, minHeight }: ResponsiveTableProps<T>) {
  const cols: DataTableColumn<T>[] = columns.map(({ visibleFrom, card, cardLabel, cardOrder, ...col }) => ({
    ...col,
    ...(visibleFrom ? { visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints[visibleFrom]})` } : {}),
    ...(card === 'actions' ? { customCellAttributes: actionsCell } : {}),
  }));
  const sortProps = sortStatus && onSortStatusChange ? { sortStatus, onSortStatusChange } : {};
  return (
    <DataTable<T>
      withTableBorder
      borderRadius="sm"
      striped
      highlightOnHover
      horizontalSpacing="xs"
      minHeight={records.length === 0 ? (minHeight ?? 180) : undefined}
      columns={cols}
      records={records}
      idAccessor={(idAccessor ?? 'id') as keyof T & string}
      fetching={fetching}
      noRecordsText={noRecordsText}
      pinFirstColumn={columns[0]?.card === 'actions'}
      pinLastColumn={columns.length > 1 && columns[columns.length - 1]?.card === 'actions'}
      customRowAttributes={rowTestId ? (r) => ({ 'data-testid': rowTestId(r) }) : undefined}
      data-testid={testId}
      {...sortProps}
    />
  );
}
