import { ActionIcon, Button, Group, Stack, TextInput, Tooltip } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { IconListCheck, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '../../components/confirm';
import { PageHeader } from '../../components/PageHeader';
import { ResponsiveTable, type SortStatus } from '../../components/table/ResponsiveTable';
import { useDeleteBouquet } from './api';
import { useBouquets } from '../../api/catalogue';
import { BouquetModal } from './BouquetModal';
import type { Bouquet, BouquetListed } from '../../api/types';
import { formatNumber } from '../../lib/format';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import './texts';

// Its own chunk: the catalogue pickers load when an admin opens a bouquet's contents.
const BouquetContentsModal = lazy(() => import('./BouquetContentsModal'));

/** /bouquets — every bouquet (small list, filtered and sorted in the browser): create, rename, choose its categories and streams, delete. */
export function BouquetsPage() {
  const { t } = useTranslation();
  const list = useBouquets();
  const remove = useDeleteBouquet();
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortStatus>({ columnAccessor: 'id', direction: 'asc' });
  const [modal, setModal] = useState<{ opened: boolean; bouquet?: Bouquet }>({ opened: false });
  const [contentsOf, setContentsOf] = useState<BouquetListed | null>(null);

  const records = useMemo(() => {
    const f = filter.trim().toLowerCase();
    const rows = (list.data ?? []).filter((b) => !f || b.bouquet_name.toLowerCase().includes(f) || String(b.id) === f);
    const key = sort.columnAccessor as keyof BouquetListed;
    const dir = sort.direction === 'asc' ? 1 : -1;
    return [...rows].sort((a, b) => (a[key] < b[key] ? -dir : a[key] > b[key] ? dir : 0));
  }, [list.data, filter, sort]);

  const onDelete = async (b: Bouquet) => {
    if (!(await confirmDelete(t('bouquets.deleteTitle'), t('bouquets.deleteConfirm', { name: b.bouquet_name })))) return;
    await remove.mutateAsync(b.id);
    notifySuccess(t('bouquets.deleted'));
  };

  return (
    <Stack gap="sm">
      <PageHeader
        title={t('bouquets.title')}
        actions={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setModal({ opened: true })} data-testid="bouquet-create">
            {t('bouquets.create')}
          </Button>
        }
      />
      <TextInput
        maw={320}
        leftSection={<IconSearch size={16} />}
        placeholder={t('bouquets.filter')}
        aria-label={t('bouquets.filter')}
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        data-testid="bouquet-filter"
      />
      {list.isError && (
        <LoadErrorAlert onRetry={() => list.refetch()} />
      )}
      <ResponsiveTable<BouquetListed>
        records={records}
        fetching={list.isFetching}
        loading={list.isPending}
        noRecordsText={t('bouquets.empty')}
        sortStatus={sort}
        onSortStatusChange={setSort}
        testId="bouquets-table"
        rowTestId={(b) => `bouquet-row-${b.id}`}
        columns={[
          { accessor: 'id', title: 'ID', sortable: true, width: 80 },
          { accessor: 'bouquet_name', title: t('bouquets.name'), sortable: true, card: 'title' },
          { accessor: 'categories_count', title: t('bouquets.contents.categoriesCount'), sortable: true, textAlign: 'right', render: (b) => <span data-testid={`bouquet-categories-count-${b.id}`}>{formatNumber(b.categories_count)}</span> },
          { accessor: 'streams_count', title: t('bouquets.contents.streamsCount'), sortable: true, textAlign: 'right', render: (b) => <span data-testid={`bouquet-streams-count-${b.id}`}>{formatNumber(b.streams_count)}</span> },
          {
            accessor: 'actions',
            title: t('common.actions'),
            textAlign: 'right',
            width: 140,
            card: 'actions',
            render: (b) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Tooltip label={t('bouquets.contents.action')}>
                  <ActionIcon variant="subtle" aria-label={t('bouquets.contents.aria', { name: b.bouquet_name })} onClick={() => setContentsOf(b)} data-testid={`bouquet-contents-${b.id}`}>
                    <IconListCheck size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('common.rename')}>
                  <ActionIcon variant="subtle" aria-label={`${t('common.rename')} ${b.bouquet_name}`} onClick={() => setModal({ opened: true, bouquet: b })} data-testid={`bouquet-rename-${b.id}`}>
                    <IconPencil size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('common.delete')}>
                  <ActionIcon variant="subtle" color="red" aria-label={`${t('common.delete')} ${b.bouquet_name}`} onClick={() => void onDelete(b)} data-testid={`bouquet-delete-${b.id}`}>
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ),
          },
        ]}
      />
      <BouquetModal opened={modal.opened} bouquet={modal.bouquet} onClose={() => setModal({ opened: false })} />
      {contentsOf && (
        <Suspense fallback={null}>
          <BouquetContentsModal bouquet={contentsOf} onClose={() => setContentsOf(null)} />
        </Suspense>
      )}
    </Stack>
  );
}
