import { Badge, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_DEBOUNCE_MS } from '../../api/resellerSearch';
import type { CatalogueKind, Stream } from '../../api/types';
import { PageHeader } from '../../components/PageHeader';
import { ListTable } from '../../components/table/ListTable';
import type { ResponsiveColumn } from '../../components/table/ResponsiveTable';
import type { SortState } from '../../components/table/tableSearch';
import { useTableState } from '../../components/table/useTableState';
import { formatDateTime } from '../../lib/format';
import { useCategories, useStreams } from '../../api/catalogue';
import { ImportPanel } from './ImportPanel';
import { catalogueSearch } from './search';
import { KINDS } from '../../api/catalogue';
import './texts';

const DEFAULT_SORT: SortState = { field: 'id', direction: 'asc' };
export const KIND_COLORS: Record<CatalogueKind, string> = { live: 'teal', movie: 'blue', series: 'grape' };

/** /catalogue — the streams catalogue: M3U import, then a paged list with search, kind and category filters (all in the URL). */
export function CataloguePage() {
  const { t } = useTranslation();
  const table = useTableState(catalogueSearch, DEFAULT_SORT);
  const query = useStreams(table.apiQuery);
  const categories = useCategories();
  const { filters, setFilters } = table;
  const [text, setText] = useState(filters.search ?? '');
  const [debounced] = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);

  // URL -> input (back/forward); input -> URL after the debounce.
  useEffect(() => setText(filters.search ?? ''), [filters.search]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced text writes the URL
  useEffect(() => {
    const v = debounced.trim() || undefined;
    if (v !== filters.search) setFilters({ search: v });
  }, [debounced]);

  const categoryOptions = (categories.data ?? [])
    .filter((c) => !filters.kind || c.kind === filters.kind)
    .map((c) => ({ value: String(c.id), label: `${c.name} (${t(`catalogue.kinds.${c.kind}`)})` }));

  const columns: ResponsiveColumn<Stream>[] = [
    { accessor: 'id', title: t('catalogue.columns.id'), sortable: true, width: 80, card: 'none' },
    { accessor: 'name', title: t('catalogue.columns.name'), sortable: true, card: 'title', render: (s) => <span data-testid={`stream-name-${s.id}`}>{s.name}</span> },
    {
      accessor: 'kind',
      title: t('catalogue.columns.kind'),
      sortable: true,
      render: (s) => (
        <Badge variant="light" color={KIND_COLORS[s.kind]}>
          {t(`catalogue.kinds.${s.kind}`)}
        </Badge>
      ),
    },
    { accessor: 'category_id', title: t('catalogue.columns.category'), sortable: true, render: (s) => s.category_name },
    { accessor: 'container_ext', title: t('catalogue.columns.ext'), visibleFrom: 'lg' },
    { accessor: 'epg_id', title: t('catalogue.columns.epg'), visibleFrom: 'xl', render: (s) => s.epg_id ?? '-' },
    { accessor: 'added', title: t('catalogue.columns.added'), sortable: true, noWrap: true, visibleFrom: 'md', render: (s) => formatDateTime(s.added) },
  ];

  return (
    <>
      <PageHeader title={t('catalogue.title')} />
      <ImportPanel />
      <Group gap="xs" my="sm" align="flex-end" wrap="wrap">
        <TextInput
          style={{ flex: 1 }}
          miw={200}
          maw={360}
          leftSection={<IconSearch size={16} />}
          placeholder={t('catalogue.searchPlaceholder')}
          aria-label={t('catalogue.search')}
          maxLength={100}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') setFilters({ search: text.trim() || undefined });
          }}
          data-testid="catalogue-search"
        />
        <Select
          w={160}
          aria-label={t('catalogue.columns.kind')}
          placeholder={t('catalogue.allKinds')}
          clearable
          data={KINDS.map((k) => ({ value: k, label: t(`catalogue.kinds.${k}`) }))}
          value={filters.kind ?? null}
          onChange={(v) => setFilters({ kind: (v as CatalogueKind | null) ?? undefined, category_id: undefined })}
          data-testid="catalogue-kind"
        />
        <Select
          w={260}
          aria-label={t('catalogue.columns.category')}
          placeholder={t('catalogue.allCategories')}
          clearable
          searchable
          nothingFoundMessage={t('common.noRecords')}
          data={categoryOptions}
          value={filters.category_id ? String(filters.category_id) : null}
          onChange={(v) => setFilters({ category_id: v ? Number(v) : undefined })}
          data-testid="catalogue-category"
        />
      </Group>
      <ListTable columns={columns} query={query} table={table} testId="catalogue-table" rowTestId={(s) => `stream-row-${s.id}`} emptyText={t('catalogue.empty')} />
    </>
  );
}
