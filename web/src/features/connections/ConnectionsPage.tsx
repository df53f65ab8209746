import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { IconPlugConnectedX, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Connection } from '../../api/types';
import { confirmDialog } from '../../components/confirm';
import { PageHeader } from '../../components/PageHeader';
import { ListTable } from '../../components/table/ListTable';
import type { ResponsiveColumn } from '../../components/table/ResponsiveTable';
import type { SortState } from '../../components/table/tableSearch';
import { useTableState } from '../../components/table/useTableState';
import { formatDateTime, formatElapsed } from '../../lib/format';
import { useProfile } from '../../api/profile';
import { UserFiltersBar } from '../lines/UserFilters';
import { useConnections, useDisconnect } from './api';
import { type ConnectionFilters, connectionsSearch } from './search';

const DEFAULT_SORT: SortState = { field: 'activity_id', direction: 'desc' };

/** /users/connections — who is watching now (refreshed every 15 s), with the user list's filters, and disconnect. */
export function ConnectionsPage() {
  const { t } = useTranslation();
  const table = useTableState(connectionsSearch, DEFAULT_SORT);
  const query = useConnections(table.apiQuery);
  const profile = useProfile();
  const disconnect = useDisconnect();

  const onDisconnect = async (c: Connection) => {
    const ok = await confirmDialog({
      title: t('connections.disconnect.title'),
      message: t('connections.disconnect.confirm', { username: c.username, watching: c.watching ?? '-' }),
      confirmLabel: t('connections.disconnect.submit'),
      danger: true,
    });
    if (!ok) return;
    // awaited (not a callback of the latest call only): each disconnect says it is done
    await disconnect.mutateAsync({ lineId: c.id, activityId: c.activity_id });
    notifySuccess(t('connections.disconnect.success'));
  };

  const columns: ResponsiveColumn<Connection>[] = [
    { accessor: 'activity_id', title: t('connections.columns.activityId'), sortable: true, noWrap: true, card: 'none' },
    {
      accessor: 'username',
      title: t('connections.columns.username'),
      sortable: true,
      noWrap: true,
      card: 'title',
      render: (c) => (
        <Text size="sm" fw={600} data-testid={`connection-username-${c.activity_id}`}>
          {c.username}
          {c.is_trial === 1 && (
            <Text span size="xs" c="orange" fw={700} ml={6}>
              {t('users.trialTag')}
            </Text>
          )}
        </Text>
      ),
    },
    { accessor: 'created_at', title: t('connections.columns.created'), sortable: true, noWrap: true, visibleFrom: 'lg', render: (c) => formatDateTime(c.created_at) },
    { accessor: 'master_username', title: t('connections.columns.reseller'), sortable: true, noWrap: true, render: (c) => c.master_username ?? '-' },
    {
      accessor: 'watching',
      title: t('connections.columns.watching'),
      cardOrder: -1,
      render: (c) => (
        <div data-testid={`connection-watching-${c.activity_id}`}>
          <Text size="sm">{c.watching ?? '-'}</Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {[c.server_name, c.user_ip].filter(Boolean).join(' · ')}
          </Text>
        </div>
      ),
    },
    {
      accessor: 'date_start',
      title: t('connections.columns.elapsed'),
      sortable: true,
      noWrap: true,
      render: (c) => (
        <Text size="sm" ff="monospace" data-testid={`connection-elapsed-${c.activity_id}`}>
          {formatElapsed(c.elapsed)}
        </Text>
      ),
    },
    {
      accessor: 'actions',
      title: t('common.actions'),
      textAlign: 'right',
      width: 80,
      card: 'actions',
      render: (c) => (
        <Tooltip label={t('connections.disconnect.submit')}>
          <ActionIcon
            variant="light"
            color="red"
            size="lg"
            loading={disconnect.isPending && disconnect.variables.activityId === c.activity_id}
            aria-label={t('connections.disconnect.aria', { username: c.username })}
            onClick={() => void onDisconnect(c)}
            data-testid={`connection-disconnect-${c.activity_id}`}
          >
            <IconPlugConnectedX size={18} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('connections.title')}
        actions={
          <Group gap={6} wrap="nowrap">
            <Text size="xs" c="dimmed">
              {t('connections.autoRefresh')}
            </Text>
            <Tooltip label={t('connections.refresh')}>
              <ActionIcon variant="default" aria-label={t('connections.refresh')} loading={query.isFetching} onClick={() => void query.refetch()} data-testid="connections-refresh">
                <IconRefresh size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        }
      />
      <UserFiltersBar
        mode="connections"
        filters={table.filters}
        setFilters={table.setFilters}
        removeFilter={(key) => table.removeFilter(key as keyof ConnectionFilters)}
        clearFilters={table.clearFilters}
        showReseller={!!profile.data && profile.data.type !== 'reseller'}
      />
      <ListTable
        columns={columns}
        query={query}
        table={table}
        idAccessor="activity_id"
        testId="connections-table"
        rowTestId={(c) => `connection-row-${c.activity_id}`}
        emptyText={t('connections.empty')}
      />
    </>
  );
}
