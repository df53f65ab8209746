import { ActionIcon, Button, Group, Menu, Text, VisuallyHidden } from '@mantine/core';
import { toast } from '../../api/notify';
import {
  IconBrandWhatsapp,
  IconCalendarPlus,
  IconClockPlus,
  IconDotsVertical,
  IconLink,
  IconLock,
  IconLockOpen,
  IconPencil,
  IconPlus,
  IconRefresh,
  IconRefreshDot,
  IconScreenShare,
  IconTrash,
  IconBolt,
  IconDeviceTv,
} from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmBlockToggle, confirmRemove } from './confirmLine';
import { confirmDialog } from '../../components/confirm';
import { ExportMenu } from '../../components/ExportMenu';
import { SyncBadge } from '../../components/SyncBadge';
import { PageHeader } from '../../components/PageHeader';
import { ListTable } from '../../components/table/ListTable';
import { CARDS_QUERY, type ResponsiveColumn } from '../../components/table/ResponsiveTable';
import type { SortState } from '../../components/table/tableSearch';
import { usePendingRows } from '../../components/table/rowActions';
import { useTableState } from '../../components/table/useTableState';
import { useProfile } from '../../api/profile';
import { LINE_ROW_ACTIONS, useChangeSystem, useDeleteLine, useFlashRenewLine, useLines, useResyncLine, useSetLineBlocked } from './api';
import { ExpiryBadge } from '../../components/ExpiryBadge';
import { formatDateTime } from '../../lib/format';
import { useNowSec } from '../../lib/useNowSec';
import { lazyPlayerBlocker } from './lazyPlayer';
import type { LineDialogKind } from './LineDialog';
import { usersSearch } from './search';
import { CutText, LoginCell, StatusBadge, SystemSwitch } from './ui';
import { UserFiltersBar } from './UserFilters';
import { useWhatsAppDialog } from './whatsAppDialog';
import type { Line } from '../../api/types';
import './texts';

const DEFAULT_SORT: SortState = { field: 'id', direction: 'desc' };

const DESKTOP_ORDER = ['actions', 'id', 'username', 'password', 'created_at', 'exp_date', 'master_username', 'reseller_notes', 'whatsapp', 'max_connections', 'enabled', 'system'];
const CARD_ORDER = ['username', 'actions', 'exp_date', 'enabled', 'system', 'max_connections', 'password', 'whatsapp', 'reseller_notes', 'master_username', 'id', 'created_at'];

type DialogKind = LineDialogKind;
const LineDialog = lazy(() => import('./LineDialog'));

/** /users — the reseller's lines: URL-bound filters, expiry/status badges, system switch and row actions. */
export function UsersPage() {
  const { t } = useTranslation();
  const table = useTableState(usersSearch, DEFAULT_SORT);
  const query = useLines(table.apiQuery);
  const profile = useProfile();
  const now = useNowSec();
  const cards = useMediaQuery(CARDS_QUERY, false, { getInitialValueInEffect: false });
  const [dialog, setDialog] = useState<{ kind: DialogKind; line: Line } | null>(null);
  const busy = usePendingRows(LINE_ROW_ACTIONS);
  const setBlocked = useSetLineBlocked();
  const remove = useDeleteLine();
  const changeSystem = useChangeSystem();
  const resync = useResyncLine();
  // A flash renew retried after a lost answer (time-out, network error) reuses its key: one charge.
  const flashRenew = useFlashRenewLine();

  const onBlockToggle = async (line: Line) => {
    const block = line.enabled === 1;
    if (await confirmBlockToggle(line.username, block)) await setBlocked.mutateAsync({ id: line.id, block });
  };

  const onFlashRenew = async (line: Line) => {
    const ok = await confirmDialog({
      title: t('users.flash.title'),
      message: t('users.flash.confirm', { username: line.username, count: line.max_connections }),
      confirmLabel: t('users.flash.submit'),
    });
    if (ok) await flashRenew.mutateAsync({ id: line.id });
  };

  const onRemove = async (line: Line) => {
    if (await confirmRemove(line.username)) await remove.mutateAsync({ id: line.id });
  };

  const whatsapp = useWhatsAppDialog();
  const onWhatsApp = whatsapp.open;

  /** Lazy Player: lines of another system or with missing data are refused before the dialog (docs/rules.md). */
  const onLazyPlayer = (line: Line) => {
    const blocker = lazyPlayerBlocker(line);
    if (blocker) toast({ color: 'red', title: t('common.error'), message: blocker });
    else setDialog({ kind: 'lazy', line });
  };

  const onResync = (line: Line) => void resync.mutateAsync({ id: line.id });

  const onSystem = (line: Line) => void changeSystem.mutateAsync({ id: line.id, systemId: line.system === 1 ? 2 : 1 });

  const col: Record<string, ResponsiveColumn<Line>> = {
    actions: {
      accessor: 'actions',
      title: <VisuallyHidden>{t('common.actions')}</VisuallyHidden>,
      width: 52,
      card: 'actions',
      render: (l) => <RowMenu line={l} busy={busy.has(l.id)} on={{ setDialog, onBlockToggle, onFlashRenew, onRemove, onWhatsApp, onLazyPlayer, onResync }} />,
    },
    id: { accessor: 'id', title: t('users.columns.id'), sortable: true, noWrap: true, card: 'none' },
    username: {
      accessor: 'username',
      title: t('users.columns.username'),
      sortable: true,
      noWrap: true,
      card: 'title',
      render: (l) => <LoginCell login={l.username} id={l.id} trial={l.is_trial === 1} showId={cards} testId={`user-username-${l.id}`} />,
    },
    password: { accessor: 'password', title: t('users.columns.password'), noWrap: true, render: (l) => <Text size="sm" ff="monospace">{l.password}</Text> },
    created_at: { accessor: 'created_at', title: t('users.columns.created'), sortable: true, noWrap: true, visibleFrom: 'xl', card: 'none', render: (l) => formatDateTime(l.created_at) },
    exp_date: { accessor: 'exp_date', title: t('users.columns.expire'), sortable: true, noWrap: true, render: (l) => <ExpiryBadge expDate={l.exp_date} now={now} testId={`user-expiry-${l.id}`} /> },
    master_username: { accessor: 'master_username', title: t('users.columns.reseller'), sortable: true, noWrap: true, render: (l) => l.master_username ?? '-' },
    reseller_notes: { accessor: 'reseller_notes', title: t('users.columns.notes'), noWrap: true, visibleFrom: 'xl', render: (l) => <CutText text={l.reseller_notes} testId={`user-notes-${l.id}`} /> },
    whatsapp: { accessor: 'whatsapp', title: t('users.columns.whatsapp'), noWrap: true, visibleFrom: 'xl', render: (l) => <CutText text={l.whatsapp} testId={`user-whatsapp-${l.id}`} /> },
    max_connections: {
      accessor: 'max_connections',
      title: t('users.columns.screens'),
      textAlign: 'center',
      render: (l) => <span data-testid={`user-screens-${l.id}`}>{l.max_connections}</span>,
    },
    enabled: { accessor: 'enabled', title: t('users.columns.status'), noWrap: true, render: (l) => <StatusBadge line={l} now={now} testId={`user-status-${l.id}`} /> },
    system: {
      accessor: 'system',
      title: t('users.columns.system'),
      noWrap: true,
      render: (l) => (
        <Group gap={6} wrap="nowrap">
          <SystemSwitch system={l.system} enabled={l.enabled === 1} busy={busy.has(l.id)} onToggle={() => onSystem(l)} testId={`user-system-${l.id}`} />
          {l.system !== 1 && <SyncBadge state={l.sync_state} error={l.sync_error} testId={`user-sync-${l.id}`} />}
        </Group>
      ),
    },
  };
  // Column order in the table (created, notes and WhatsApp from 88em: at 1280 px with the sidebar the rest fits);
  // on a phone's cards what a reseller checks first comes first.
  const order = cards ? CARD_ORDER : DESKTOP_ORDER;
  const columns = order.map((k) => col[k]!);

  return (
    <>
      <PageHeader
        title={t('users.title')}
        actions={
          <>
            <ExportMenu path="/users/export" query={table.filters} formats={['csv', 'xlsx']} testId="users-export" />
            <Button component={Link} to="/users/add_trial" variant="light" leftSection={<IconClockPlus size={18} />} data-testid="users-add-trial">
              {t('users.addTrial')}
            </Button>
            <Button component={Link} to="/users/add" leftSection={<IconPlus size={18} />} data-testid="users-add">
              {t('users.add')}
            </Button>
          </>
        }
      />
      <UserFiltersBar
        filters={table.filters}
        setFilters={table.setFilters}
        removeFilter={table.removeFilter}
        clearFilters={table.clearFilters}
        showReseller={!!profile.data && profile.data.type !== 'reseller'}
      />
      <ListTable columns={columns} query={query} table={table} testId="users-table" rowTestId={(l) => `user-row-${l.id}`} emptyText={t('users.empty')} />
      {dialog && (
        <Suspense fallback={null}>
          <LineDialog kind={dialog.kind} line={dialog.line} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {whatsapp.modal}
    </>
  );
}

interface RowHandlers {
  setDialog: (d: { kind: DialogKind; line: Line }) => void;
  onBlockToggle: (l: Line) => Promise<void>;
  onFlashRenew: (l: Line) => Promise<void>;
  onRemove: (l: Line) => Promise<void>;
  onWhatsApp: (l: Line) => void;
  onLazyPlayer: (l: Line) => void;
  onResync: (l: Line) => void;
}

/** Row actions in one menu (large touch targets on phones). */
function RowMenu({ line, busy, on }: { line: Line; busy: boolean; on: RowHandlers }) {
  const { t } = useTranslation();
  const trial = line.is_trial === 1;
  const id = line.id;
  return (
    <Menu position="bottom-start" shadow="md" width={230} withinPortal>
      <Menu.Target>
        <ActionIcon variant="light" size="lg" loading={busy} aria-label={t('users.actions.menu', { username: line.username })} data-testid={`user-actions-${id}`}>
          <IconDotsVertical size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown data-testid={`user-actions-menu-${id}`}>
        <Menu.Label>{line.username}</Menu.Label>
        <Menu.Item leftSection={<IconRefresh size={16} />} onClick={() => on.setDialog({ kind: 'renew', line })} data-testid="action-renew">
          {t('users.actions.renew')}
        </Menu.Item>
        {!trial && (
          <Menu.Item leftSection={<IconBolt size={16} />} onClick={() => void on.onFlashRenew(line)} data-testid="action-flash">
            {t('users.actions.flash')}
          </Menu.Item>
        )}
        {!trial && (
          <Menu.Item leftSection={<IconCalendarPlus size={16} />} onClick={() => on.setDialog({ kind: 'extend', line })} data-testid="action-extend">
            {t('users.actions.extend')}
          </Menu.Item>
        )}
        {!trial && (
          <Menu.Item leftSection={<IconScreenShare size={16} />} onClick={() => on.setDialog({ kind: 'screens', line })} data-testid="action-screens">
            {t('users.actions.screens')}
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item leftSection={<IconBrandWhatsapp size={16} />} color="green" onClick={() => on.onWhatsApp(line)} data-testid="action-whatsapp">
          {t('users.actions.whatsapp')}
        </Menu.Item>
        {!trial && (
          <Menu.Item leftSection={<IconDeviceTv size={16} />} onClick={() => on.onLazyPlayer(line)} data-testid="action-lazy">
            {t('lazyPlayer.action')}
          </Menu.Item>
        )}
        {line.system !== 1 && (
          <Menu.Item leftSection={<IconRefreshDot size={16} />} onClick={() => on.onResync(line)} data-testid="action-resync">
            {t('p2p.resync.action')}
          </Menu.Item>
        )}
        <Menu.Item leftSection={<IconLink size={16} />} onClick={() => on.setDialog({ kind: 'links', line })} data-testid="action-links">
          {t('users.actions.links')}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconPencil size={16} />}
          renderRoot={(props) => <Link {...props} to="/users/$userId/edit" params={{ userId: String(id) }} />}
          data-testid="action-edit"
        >
          {t('common.edit')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          leftSection={line.enabled === 1 ? <IconLock size={16} /> : <IconLockOpen size={16} />}
          color={line.enabled === 1 ? 'orange' : 'teal'}
          onClick={() => void on.onBlockToggle(line)}
          data-testid={line.enabled === 1 ? 'action-block' : 'action-unblock'}
        >
          {line.enabled === 1 ? t('users.actions.block') : t('users.actions.unblock')}
        </Menu.Item>
        <Menu.Item leftSection={<IconTrash size={16} />} color="red" onClick={() => void on.onRemove(line)} data-testid="action-remove">
          {t('users.actions.remove')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

