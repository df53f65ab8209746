import './wide-table.css';
import { Skeleton, Table, UnstyledButton } from '@mantine/core';
import { IconArrowsSort, IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { cellValue, keyOf, type ResponsiveColumn, type ResponsiveTableProps, type SortStatus } from './columns';

/** Clicking a sorted column turns its direction; another column sorts in the current direction. */
function nextSort(status: SortStatus, accessor: string): SortStatus {
  if (status.columnAccessor !== accessor) return { columnAccessor: accessor, direction: status.direction };
  return { columnAccessor: accessor, direction: status.direction === 'asc' ? 'desc' : 'asc' };
}

/** The header button fills its cell, its text where the column's text is. */
const JUSTIFY = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;

function cellStyle<T>(col: ResponsiveColumn<T>): CSSProperties {
  return { width: col.width, textAlign: col.textAlign, whiteSpace: col.noWrap ? 'nowrap' : undefined, overflowWrap: col.breakWords ? 'anywhere' : undefined };
}

/**
 * ResponsiveTable from the `sm` breakpoint up: Mantine's Table with sortable headers (a button in
 * the header, `aria-sort` on it), columns shown from their breakpoint up, and the actions column
 * pinned to its side (wide-table.css) so it stays in view when the table scrolls sideways.
 */
export function WideTable<T>({ columns, records, idAccessor, fetching, loading, noRecordsText, sortStatus, onSortStatusChange, testId, rowTestId, minHeight }: ResponsiveTableProps<T>) {
  const { t } = useTranslation();
  const pinned = (i: number) =>
    i === 0 && columns[0]?.card === 'actions' ? 'first' : i > 0 && i === columns.length - 1 && columns[i]?.card === 'actions' ? 'last' : undefined;
  const header = (col: ResponsiveColumn<T>, i: number) => {
    const sortable = col.sortable && sortStatus && onSortStatusChange;
    const sorted = sortable && sortStatus.columnAccessor === col.accessor ? sortStatus.direction : undefined;
    const Arrow = sorted === 'asc' ? IconChevronUp : sorted === 'desc' ? IconChevronDown : IconArrowsSort;
    return (
      <Table.Th
        key={col.accessor}
        visibleFrom={col.visibleFrom}
        style={cellStyle(col)}
        data-pinned={pinned(i)}
        aria-sort={sortable ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined}
      >
        {sortable ? (
          <UnstyledButton
            onClick={() => onSortStatusChange(nextSort(sortStatus, col.accessor))}
            title={t('table.sortBy')}
            style={{ justifyContent: JUSTIFY[col.textAlign ?? 'left'] }}
          >
            {col.title}
            <Arrow size={14} stroke={1.5} aria-hidden style={{ opacity: sorted ? 1 : 0.4 }} />
          </UnstyledButton>
        ) : (
          col.title
        )}
      </Table.Th>
    );
  };
  const body =
    (loading || fetching) && records.length === 0 ? (
      <Table.Tr>
        <Table.Td colSpan={columns.length}>
          <Skeleton h={(minHeight ?? 180) - 24} />
        </Table.Td>
      </Table.Tr>
    ) : records.length === 0 ? (
      <Table.Tr>
        <Table.Td colSpan={columns.length} h={minHeight ?? 180} data-empty="">
          {noRecordsText}
        </Table.Td>
      </Table.Tr>
    ) : (
      records.map((record, r) => (
        <Table.Tr key={keyOf(record, idAccessor)} data-testid={rowTestId?.(record)}>
          {columns.map((col, i) => (
            <Table.Td
              key={col.accessor}
              visibleFrom={col.visibleFrom}
              style={cellStyle(col)}
              data-pinned={pinned(i)}
              data-row-actions={col.card === 'actions' ? '' : undefined}
            >
              {cellValue(col, record, r)}
            </Table.Td>
          ))}
        </Table.Tr>
      ))
    );
  return (
    <div className="panel-table" data-testid={testId} aria-busy={fetching || undefined}>
      <Table striped highlightOnHover horizontalSpacing="xs" verticalSpacing="xs" style={{ opacity: fetching && records.length > 0 ? 0.6 : 1 }}>
        <Table.Thead>
          <Table.Tr>{columns.map(header)}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body}</Table.Tbody>
      </Table>
    </div>
  );
}
