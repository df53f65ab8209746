import { Box, Card, Group, Select, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { PHONE_QUERY } from '../../lib/media';
import { cellValue, keyOf, type ResponsiveColumn, type ResponsiveTableProps, type SortStatus } from './columns';
import { WideTable } from './WideTable';

export type { ResponsiveColumn, ResponsiveTableProps, SortStatus } from './columns';

/** Below this width (where the sidebar collapses too) rows are cards. */
export const CARDS_QUERY = PHONE_QUERY;

/**
 * A table (WideTable) from the `sm` breakpoint up and one card per row below it, from one column list:
 * columns say when they show (`visibleFrom`) and their part in a card (`card`). The actions column
 * is pinned to its side of the table, so it stays in view when the table is wider than the screen.
 */
export function ResponsiveTable<T>(props: ResponsiveTableProps<T>) {
  const cards = useMediaQuery(CARDS_QUERY, false, { getInitialValueInEffect: false });
  return cards ? <RowCards {...props} /> : <WideTable {...props} />;
}

function RowCards<T>({ columns, records, idAccessor, fetching, loading, noRecordsText, sortStatus, onSortStatusChange, testId, rowTestId }: ResponsiveTableProps<T>) {
  const label = (c: ResponsiveColumn<T>) => c.cardLabel ?? (typeof c.title === 'string' ? c.title : String(c.accessor));
  const titles = columns.filter((c) => c.card === 'title');
  const actions = columns.filter((c) => c.card === 'actions');
  const fields = columns.filter((c) => (c.card ?? 'field') === 'field').sort((a, b) => (a.cardOrder ?? 0) - (b.cardOrder ?? 0));
  return (
    <Stack gap="xs" data-testid={testId}>
      {sortStatus && onSortStatusChange && <SortSelect columns={columns} label={label} sortStatus={sortStatus} onChange={onSortStatusChange} />}
      {(loading || fetching) && records.length === 0 ? (
        [0, 1, 2].map((i) => <Skeleton key={i} h={96} radius="md" />)
      ) : records.length === 0 ? (
        <Text c="dimmed" size="sm" ta="center" py="lg">
          {noRecordsText}
        </Text>
      ) : (
        <Stack gap="xs" style={{ opacity: fetching ? 0.6 : 1 }}>
          {records.map((r, i) => (
            <Card key={keyOf(r, idAccessor)} withBorder radius="md" padding="sm" data-testid={rowTestId?.(r)}>
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                <Stack gap={2} miw={0} style={{ flex: 1, overflowWrap: 'anywhere' }}>
                  {titles.map((c) => (
                    <Box key={String(c.accessor)} fz="sm" fw={600}>
                      {cellValue(c, r, i)}
                    </Box>
                  ))}
                </Stack>
                {actions.map((c) => (
                  <Box key={String(c.accessor)} data-row-actions="" style={{ flexShrink: 0 }}>
                    {cellValue(c, r, i)}
                  </Box>
                ))}
              </Group>
              {fields.length > 0 && (
                <SimpleGrid cols={2} spacing="xs" verticalSpacing={6} mt={8}>
                  {fields.map((c) => (
                    <Box key={String(c.accessor)} miw={0}>
                      <Text size="xs" c="dimmed" lh={1.3}>
                        {label(c)}
                      </Text>
                      <Box fz="sm" style={{ overflowWrap: 'anywhere' }}>
                        {cellValue(c, r, i)}
                      </Box>
                    </Box>
                  ))}
                </SimpleGrid>
              )}
            </Card>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** Cards have no headers to click: the sortable columns in one select ("Expiry ↑"). */
function SortSelect<T>({
  columns,
  label,
  sortStatus,
  onChange,
}: {
  columns: ResponsiveColumn<T>[];
  label: (c: ResponsiveColumn<T>) => string;
  sortStatus: SortStatus;
  onChange: (s: SortStatus) => void;
}) {
  const { t } = useTranslation();
  const sortable = columns.filter((c) => c.sortable);
  if (sortable.length === 0) return null;
  const data = sortable.flatMap((c) => [
    { value: `${String(c.accessor)},asc`, label: `${label(c)} ↑` },
    { value: `${String(c.accessor)},desc`, label: `${label(c)} ↓` },
  ]);
  const current = sortStatus.columnAccessor ? `${String(sortStatus.columnAccessor)},${sortStatus.direction}` : null;
  return (
    <Select
      size="sm"
      label={t('table.sortBy')}
      data={data}
      value={current}
      allowDeselect={false}
      onChange={(v) => {
        if (!v) return;
        const [accessor, direction] = v.split(',') as [string, 'asc' | 'desc'];
        onChange({ columnAccessor: accessor, direction });
      }}
      comboboxProps={{ withinPortal: true }}
      data-testid="table-sort"
    />
  );
}
