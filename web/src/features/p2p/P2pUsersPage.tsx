import { ActionIcon, Alert, Badge, Button, Menu, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconClockPlus, IconDotsVertical, IconLock, IconLockOpen, IconPencil, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmBlockToggle, confirmRemove } from '../lines/confirmLine';
import type { P2pUser } from '../../api/types';

import { ExpiryBadge } from '../../components/ExpiryBadge';
import { PageHeader } from '../../components/PageHeader';
import { SyncBadge } from '../../components/SyncBadge';
import { ListTable } from '../../components/table/ListTable';
import { CARDS_QUERY, type ResponsiveColumn } from '../../components/table/ResponsiveTable';
import type { SortState } from '../../components/table/tableSearch';
import { usePendingRows } from '../../components/table/rowActions';
import { useTableState } from '../../components/table/useTableState';
import { formatDateTime } from '../../lib/format';
import { useNowSec } from '../../lib/useNowSec';
import { useProfile } from '../../api/profile';
import { useP2pConfigured } from '../../api/complements';
import { P2pNotConfigured } from './P2pNotConfigured';
import { P2P_ROW_ACTIONS, useDeleteP2pUser, useP2pOutbox, useP2pUsers, useSetP2pBlocked } from './api';
import { LoginCell } from '../lines/ui';
import { P2pFilterBar } from './P2pFilterBar';
import { p2pUsersSearch } from './search';

// Opened by a click: the renew form (and its number input) is not part of the list's first load.
const P2pRenewModal = lazy(() => import('./P2pRenewModal'));

const DEFAULT_SORT: SortState = { field: 'id', direction: 'desc' };
const STATUS_COLOR: Record<number, string> = { 1: 'teal', 0: 'red', [-1]: 'gray' };

/** /p2p_users — the P2P accounts of the caller's subtree: URL-bound filters, status and sync badges, row actions. */
export function P2pUsersPage() {
  const { t } = useTranslation();
  const table = useTableState(p2pUsersSearch, DEFAULT_SORT);
  const query = useP2pUsers(table.apiQuery);
  const profile = useProfile();
  const now = useNowSec();
  const cards = useMediaQuery(CARDS_QUERY, false, { getInitialValueInEffect: false });
  const [renewing, setRenewing] = useState<P2pUser | null>(null);
  const isAdmin = profile.data?.type === 'admin';
  const p2pOff = useP2pConfigured() === false;

  const busy = usePendingRows(P2P_ROW_ACTIONS);
  const setBlocked = useSetP2pBlocked();
  const remove = useDeleteP2pUser();

  const onBlockToggle = async (u: P2pUser) => {
    const block = u.status === 1;
    if (await confirmBlockToggle(u.email, block)) await setBlocked.mutateAsync({ id: u.id, block });
  };

  const onRemove = async (u: P2pUser) => {
    if (await confirmRemove(u.email)) await remove.mutateAsync({ id: u.id });
  };

  const col: Record<string, ResponsiveColumn<P2pUser>> = {
    actions: {
      accessor: 'actions',
      title: <VisuallyHidden>{t('common.actions')}</VisuallyHidden>,
      width: 52,
      card: 'actions',
      render: (u) => <RowMenu user={u} busy={busy.has(u.id)} canRenew={!p2pOff} onRenew={setRenewing} onBlockToggle={onBlockToggle} onRemove={onRemove} />,
    },
    id: { accessor: 'id', title: t('p2p.columns.id'), sortable: true, noWrap: true, card: 'none' },
    email: {
      accessor: 'email',
      title: t('p2p.columns.email'),
      sortable: true,
      noWrap: true,
      card: 'title',
      render: (u) => <LoginCell login={u.email} id={u.id} trial={u.is_trial === 1} showId={cards} testId={`p2p-email-${u.id}`} />,
    },
    name: { accessor: 'name', title: t('p2p.columns.name'), sortable: true, noWrap: true },
    password: { accessor: 'password', title: t('p2p.columns.password'), sortable: true, noWrap: true, render: (u) => <Text size="sm" ff="monospace">{u.password}</Text> },
    created: { accessor: 'created', title: t('p2p.columns.created'), sortable: true, noWrap: true, visibleFrom: 'xl', card: 'none', render: (u) => formatDateTime(u.created) },
    expiracao: { accessor: 'expiracao', title: t('p2p.columns.expiry'), sortable: true, noWrap: true, render: (u) => <ExpiryBadge expDate={u.expiracao} now={now} testId={`p2p-expiry-${u.id}`} /> },
    master_username: { accessor: 'master_username', title: t('p2p.columns.reseller'), sortable: true, noWrap: true, render: (u) => u.master_username ?? '-' },
    status: {
      accessor: 'status',
      title: t('p2p.columns.status'),
      sortable: true,
      noWrap: true,
      render: (u) => (
        <Badge color={STATUS_COLOR[u.status]} variant="filled" style={{ textTransform: 'none' }} data-testid={`p2p-status-${u.id}`} data-status={u.status}>
          {t(`p2p.status.${u.status}`)}
        </Badge>
      ),
    },
    sync_state: {
      accessor: 'sync_state',
      title: t('p2p.columns.sync'),
      noWrap: true,
      render: (u) => <SyncBadge state={u.sync_state} error={u.sync_error} testId={`p2p-sync-${u.id}`} />,
    },
  };
  const order = cards
    ? ['email', 'actions', 'expiracao', 'status', 'sync_state', 'name', 'password', 'master_username', 'id', 'created']
    : ['actions', 'id', 'email', 'name', 'password', 'created', 'expiracao', 'master_username', 'status', 'sync_state'];

  return (
    <>
      <PageHeader
        title={t('p2p.title')}
        actions={
          <>
            <Button component={Link} to="/p2p_users/add_trial" variant="light" leftSection={<IconClockPlus size={18} />} data-testid="p2p-add-trial">
              {t('p2p.addTrial')}
            </Button>
            <Button component={Link} to="/p2p_users/add" leftSection={<IconPlus size={18} />} data-testid="p2p-add">
              {t('p2p.add')}
            </Button>
          </>
        }
      />
      {p2pOff && <P2pNotConfigured />}
      {isAdmin && <OutboxNotice />}
      <P2pFilterBar
        filters={table.filters}
        setFilters={table.setFilters}
        removeFilter={table.removeFilter}
        clearFilters={table.clearFilters}
        showReseller={!!profile.data && profile.data.type !== 'reseller'}
      />
      <ListTable columns={order.map((k) => col[k]!)} query={query} table={table} testId="p2p-table" rowTestId={(u) => `p2p-row-${u.id}`} emptyText={t('p2p.empty')} />
      {renewing && (
        <Suspense fallback={null}>
          <P2pRenewModal user={renewing} onClose={() => setRenewing(null)} />
        </Suspense>
      )}
    </>
  );
}

/** Admins see the deliveries still owed to the P2P server (and whether it is configured at all). */
function OutboxNotice() {
  const { t } = useTranslation();
  const outbox = useP2pOutbox(true);
  const o = outbox.data;
  if (!o || (o.configured && o.pending === 0 && o.failed === 0)) return null;
  return (
    <Alert color={o.failed > 0 ? 'red' : 'yellow'} variant="light" mb="sm" data-testid="p2p-outbox">
      {!o.configured && <Text size="sm">{t('p2p.outbox.notConfigured')}</Text>}
      <Text size="sm">{t('p2p.outbox.counts', { pending: o.pending, failed: o.failed })}</Text>
    </Alert>
  );
}

interface RowMenuProps {
  user: P2pUser;
  busy: boolean;
  /** false without the P2P server: a renewal would be refused (the page says why) */
  canRenew: boolean;
  onRenew: (u: P2pUser) => void;
  onBlockToggle: (u: P2pUser) => Promise<void>;
  onRemove: (u: P2pUser) => Promise<void>;
}

function RowMenu({ user, busy, canRenew, onRenew, onBlockToggle, onRemove }: RowMenuProps) {
  const { t } = useTranslation();
  const active = user.status === 1;
  return (
    <Menu position="bottom-start" shadow="md" width={220} withinPortal>
      <Menu.Target>
        <ActionIcon variant="light" size="lg" loading={busy} aria-label={t('users.actions.menu', { username: user.email })} data-testid={`p2p-actions-${user.id}`}>
          <IconDotsVertical size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown data-testid={`p2p-actions-menu-${user.id}`}>
        <Menu.Label>{user.email}</Menu.Label>
        <Menu.Item leftSection={<IconRefresh size={16} />} disabled={!canRenew} onClick={() => onRenew(user)} data-testid="p2p-action-renew">
          {t('users.actions.renew')}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconPencil size={16} />}
          renderRoot={(props) => <Link {...props} to="/p2p_users/$userId/edit" params={{ userId: String(user.id) }} />}
          data-testid="p2p-action-edit"
        >
          {t('common.edit')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          leftSection={active ? <IconLock size={16} /> : <IconLockOpen size={16} />}
          color={active ? 'orange' : 'teal'}
          onClick={() => void onBlockToggle(user)}
          data-testid={active ? 'p2p-action-block' : 'p2p-action-unblock'}
        >
          {active ? t('users.actions.block') : t('users.actions.unblock')}
        </Menu.Item>
        <Menu.Item leftSection={<IconTrash size={16} />} color="red" onClick={() => void onRemove(user)} data-testid="p2p-action-remove">
          {t('users.actions.remove')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
