import { Button, Checkbox, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { notifySuccess, toast } from '../../api/notify';
import { IconCheck, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '../../components/confirm';
import { PageHeader } from '../../components/PageHeader';
import type { ResponsiveColumn } from '../../components/table/ResponsiveTable';
import { useVodListState, VodFilterInput, VodTable } from './VodTable';
import { formatDateTime } from '../../lib/format';
import { ADDED, PENDING, useAdminVods, useRemoveMany, useSetRequestStatus, useSetStatusMany, type VodStatus } from './api';
import { Poster } from './CatalogueSearchModal';
import { Stars, VodStatusBadge } from './ui';
import type { AdminVodRequest } from '../../api/types';

const warn = (message: string) => toast({ color: 'yellow', message });

/** /list/vods/adm — every content request: paged, bulk remove and bulk status, one-row "added" while pending. */
export function AdminVodsPage() {
  const { t } = useTranslation();
  const listState = useVodListState();
  const [status, setStatus] = useState<string | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [bulkStatus, setBulkStatus] = useState<string | null>(String(ADDED));
  const remove = useRemoveMany();
  const setStatusMany = useSetStatusMany();
  const setRowStatus = useSetRequestStatus();
  const list = useAdminVods({ search: listState.debounced || undefined, status: status ? (Number(status) as VodStatus) : undefined, page: listState.page, per_page: listState.per });
  const rows = list.data?.data ?? [];
  const allOnPage = rows.length > 0 && rows.every((r) => selected.includes(r.id));

  const toggle = (id: number) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  // Each call says it is done after its own await (a second row's call does not swallow the first one's toast); the client toasts a failure.
  const removeSelected = async () => {
    if (selected.length === 0) return warn(t('vods.admin.noneToRemove'));
    if (!(await confirmDelete(t('vods.admin.removeTitle'), t('vods.admin.removeConfirm', { count: selected.length })))) return;
    await remove.mutateAsync(selected);
    notifySuccess(t('vods.admin.removed'));
    setSelected([]);
  };

  const statusSelected = async () => {
    if (selected.length === 0) return warn(t('vods.admin.noneForStatus'));
    await setStatusMany.mutateAsync({ ids: selected, status: Number(bulkStatus) as VodStatus });
    notifySuccess(t('vods.admin.changed'));
    setSelected([]);
  };

  const markAdded = async (row: AdminVodRequest) => {
    await setRowStatus.mutateAsync({ id: row.id, status: ADDED });
    notifySuccess(t('vods.admin.changed'));
  };

  const columns: ResponsiveColumn<AdminVodRequest>[] = [
    {
      accessor: 'select',
      title: (
        <Checkbox
          aria-label={t('vods.admin.selectPage')}
          checked={allOnPage}
          indeterminate={!allOnPage && rows.some((r) => selected.includes(r.id))}
          onChange={() => setSelected(allOnPage ? selected.filter((id) => !rows.some((r) => r.id === id)) : [...new Set([...selected, ...rows.map((r) => r.id)])])}
          data-testid="vod-select-page"
        />
      ),
      width: 44,
      card: 'actions',
      render: (r) => <Checkbox aria-label={t('vods.admin.select', { title: r.title })} checked={selected.includes(r.id)} onChange={() => toggle(r.id)} data-testid={`vod-select-${r.id}`} />,
    },
    { accessor: 'image_link', title: t('vods.columns.poster'), width: 64, card: 'none', visibleFrom: 'md', render: (r) => <Poster src={r.image_link} alt={t('vods.poster', { title: r.title })} /> },
    { accessor: 'title', title: t('vods.columns.title'), card: 'title', render: (r) => <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>{r.title}</Text> },
    { accessor: 'year', title: t('vods.columns.year'), noWrap: true },
    { accessor: 'stars', title: t('vods.columns.stars'), noWrap: true, visibleFrom: 'md', render: (r) => <Stars value={r.stars} /> },
    { accessor: 'requested_by', title: t('vods.columns.requestedBy'), noWrap: true, render: (r) => r.requested_by ?? '—' },
    { accessor: 'notes', title: t('vods.columns.notes'), visibleFrom: 'lg', render: (r) => <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{r.notes || '—'}</Text> },
    { accessor: 'created_at', title: t('vods.columns.created'), noWrap: true, visibleFrom: 'xl', render: (r) => formatDateTime(r.created_at) },
    {
      accessor: 'status',
      title: t('vods.columns.status'),
      noWrap: true,
      render: (r) => (
        <Group gap={6} wrap="nowrap">
          <VodStatusBadge status={r.status} />
          {r.status === PENDING && (
            <Tooltip label={t('vods.admin.markAdded')}>
              <Button size="compact-xs" variant="light" color="green" loading={setRowStatus.isPending && setRowStatus.variables.id === r.id} onClick={() => void markAdded(r)} aria-label={t('vods.admin.markAddedTitle', { title: r.title })} data-testid={`vod-mark-added-${r.id}`}>
                <IconCheck size={14} />
              </Button>
            </Tooltip>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="sm">
      <PageHeader title={t('vods.admin.title')} />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <VodFilterInput state={listState} w={{ base: '100%', xs: 260 }} />
        <Select
          aria-label={t('vods.columns.status')}
          placeholder={t('vods.status.all')}
          clearable
          data={[
            { value: String(PENDING), label: t('vods.status.pending') },
            { value: String(ADDED), label: t('vods.status.added') },
          ]}
          value={status}
          onChange={(v) => {
            setStatus(v);
            listState.setPage(1);
          }}
          w={{ base: '100%', xs: 180 }}
          data-testid="vods-status-filter"
        />
      </Group>
      <Group gap="sm" wrap="wrap" data-testid="vod-bulk">
        <Text size="sm" data-testid="vod-selected-count">
          {t('vods.admin.selected', { count: selected.length })}
        </Text>
        <Select
          aria-label={t('vods.admin.newStatus')}
          allowDeselect={false}
          data={[
            { value: String(PENDING), label: t('vods.status.pending') },
            { value: String(ADDED), label: t('vods.status.added') },
          ]}
          value={bulkStatus}
          onChange={setBulkStatus}
          w={150}
          size="xs"
          data-testid="vod-bulk-status"
        />
        <Button size="xs" variant="light" loading={setStatusMany.isPending} onClick={() => void statusSelected()} data-testid="vod-bulk-status-apply">
          {t('vods.admin.applyStatus')}
        </Button>
        <Button size="xs" color="red" variant="light" leftSection={<IconTrash size={14} />} loading={remove.isPending} onClick={() => void removeSelected()} data-testid="vod-bulk-remove">
          {t('vods.admin.remove')}
        </Button>
      </Group>
      <VodTable columns={columns} list={list} testId="admin-vods-table" state={listState} />
    </Stack>
  );
}
