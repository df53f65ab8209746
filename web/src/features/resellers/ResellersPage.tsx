import { Anchor, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { errorText } from '../../lib/errors';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconUserPlus } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { confirmDialog } from '../../components/confirm';
import { FilterChips } from '../../components/FilterChips';
import { ExportMenu } from '../../components/ExportMenu';
import { PageHeader } from '../../components/PageHeader';
import { ListTable } from '../../components/table/ListTable';
import { CARDS_QUERY, type ResponsiveColumn } from '../../components/table/ResponsiveTable';
import type { SortState } from '../../components/table/tableSearch';
import { useTableState } from '../../components/table/useTableState';
import { useProfile } from '../../api/profile';
import { useResetTwoFactor } from './resetTwoFactor';
import { confirmResetTwoFactor } from './resetTwoFactor';
import { useComplements } from '../../api/complements';
import { masterMinCredits, useResellers, useSetResellerStatus, useToMaster } from './api';
import { CreditModal } from './CreditModal';
import { DeactivateModal } from './DeactivateModal';
import { formatDateTime, formatNumber } from '../../lib/format';
import { type ActionsMode, type ResellerAction, ResellerActions } from './ResellerActions';
import { filterChips, ResellerFilterBar } from './ResellerFilters';
import { resellersSearch } from './search';
import { StatusBadge } from './StatusBadge';
import { groupName } from './groupName';
import type { Reseller } from '../../api/types';
import './texts';


/** The server lists newest first when no order is given. */
const DEFAULT_SORT: SortState = { field: 'id', direction: 'desc' };
/** Most columns from 62em (sub-resellers from 88em); every action as an icon only on very wide screens (the sidebar takes 240 px). */
const WIDE = '(min-width: 62em)';
const FULL = '(min-width: 88em)';

/** /resellers — paged, sortable, filterable list of the caller's sub-resellers with the row actions. */
export function ResellersPage() {
  const { t } = useTranslation();
  const table = useTableState(resellersSearch, DEFAULT_SORT);
  const { status, ...filters } = table.apiQuery;
  const query = useResellers({ ...filters, status: status === undefined ? undefined : Number(status) });
  const profile = useProfile();
  const complements = useComplements();
  const isAdmin = profile.data?.type === 'admin';
  const masterMin = masterMinCredits(complements.data?.settings);
  const wide = useMediaQuery(WIDE, true);
  const full = useMediaQuery(FULL, false);
  const phone = useMediaQuery(CARDS_QUERY, false, { getInitialValueInEffect: false });
  const actionsMode: ActionsMode = full ? 'full' : wide ? 'split' : 'menu';

  const setStatus = useSetResellerStatus();
  const toMaster = useToMaster();
  const resetTwoFactor = useResetTwoFactor();
  const [creditRow, setCreditRow] = useState<Reseller | null>(null);
  const [deactivateRow, setDeactivateRow] = useState<Reseller | null>(null);

  const onBlockToggle = async (row: Reseller, block: boolean) => {
    const ok = await confirmDialog({
      title: block ? t('resellers.block.title') : t('resellers.unblock.title'),
      message: block ? t('resellers.block.confirm', { username: row.username }) : t('resellers.unblock.confirm', { username: row.username }),
      danger: block,
    });
    if (!ok) return;
    await setStatus.mutateAsync({ id: row.id, block });
    notifySuccess(block ? t('resellers.block.done', { username: row.username }) : t('resellers.unblock.done', { username: row.username }));
  };

  const onToMaster = async (row: Reseller) => {
    const ok = await confirmDialog({ title: t('resellers.toMaster.title'), message: t('resellers.toMaster.confirm', { username: row.username }) });
    if (!ok) return;
    try {
      await toMaster.mutateAsync(row.id);
      notifySuccess(t('resellers.toMaster.done', { username: row.username }));
    } catch (e) {
      // the call is silent: this dialog is where its failure shows (401s are handled by the client)
      if (isApiError(e) && e.status !== 401) {
        modals.open({
          title: t('resellers.toMaster.title'),
          centered: true,
          children: (
            <Stack gap="md">
              <Text size="sm" data-testid="to-master-error">
                {e.code === 'INSUFFICIENT_CREDITS' ? t('resellers.toMaster.insufficient') : errorText(e, 'resellers')}
              </Text>
              <Group justify="flex-end">
                <Button onClick={() => modals.closeAll()}>{t('common.close')}</Button>
              </Group>
            </Stack>
          ),
        });
      }
    }
  };

  const onAction = (action: ResellerAction, row: Reseller) => {
    if (action === 'block' || action === 'unblock') void onBlockToggle(row, action === 'block');
    else if (action === 'credits') setCreditRow(row);
    else if (action === 'toMaster') void onToMaster(row);
    else if (action === 'resetTwoFactor') void confirmResetTwoFactor(row, resetTwoFactor);
    else if (action === 'deactivate') setDeactivateRow(row);
  };

  const userLink = (r: Reseller) => (
    <Anchor renderRoot={(props) => <Link {...props} to="/resellers/$resellerId" params={{ resellerId: String(r.id) }} />} fw={500} size="sm">
      {r.username}
    </Anchor>
  );

  const columns: ResponsiveColumn<Reseller>[] = [
    { accessor: 'id', title: t('resellers.fields.id'), sortable: true, width: 70, visibleFrom: 'md', card: 'none' },
    {
      accessor: 'username',
      title: t('resellers.fields.username'),
      sortable: true,
      card: 'title',
      render: (r) =>
        wide ? (
          userLink(r)
        ) : (
          <Stack gap={0}>
            {userLink(r)}
            <Text size="xs" c="dimmed">
              {(phone ? [`#${r.id}`, r.master_username] : [r.master_username, groupName(r.group_name, r.group_type)]).filter(Boolean).join(' · ')}
            </Text>
          </Stack>
        ),
    },
    {
      accessor: 'credits',
      title: t('resellers.fields.credits'),
      sortable: true,
      textAlign: 'right',
      noWrap: true,
      render: (r) => <span data-testid={`reseller-credits-value-${r.id}`}>{formatNumber(r.credits)}</span>,
    },
    { accessor: 'master_username', title: t('resellers.fields.master'), sortable: true, visibleFrom: 'md', card: 'none', render: (r) => r.master_username ?? '—' },
    {
      accessor: 'last_login',
      title: t('resellers.fields.lastLogin'),
      sortable: true,
      visibleFrom: 'lg',
      noWrap: true,
      render: (r) => (r.last_login ? formatDateTime(r.last_login) : t('resellers.never')),
    },
    { accessor: 'group_name', title: t('resellers.fields.group'), sortable: true, visibleFrom: 'md', render: (r) => groupName(r.group_name, r.group_type) },
    { accessor: 'sub_resellers_count', title: t('resellers.fields.subResellers'), textAlign: 'right', visibleFrom: 'xl', card: 'none' },
    { accessor: 'clients_count', title: t('resellers.fields.clients'), textAlign: 'right', visibleFrom: 'md' },
    {
      accessor: 'status',
      title: t('resellers.fields.status'),
      sortable: true,
      noWrap: true,
      render: (r) => (
        <span data-testid={`reseller-status-${r.id}`}>
          <StatusBadge status={r.status} />
        </span>
      ),
    },
    {
      accessor: 'actions',
      title: wide ? t('common.actions') : <VisuallyHidden>{t('common.actions')}</VisuallyHidden>,
      textAlign: 'right',
      card: 'actions',
      render: (r) => <ResellerActions row={r} isAdmin={isAdmin} masterMin={masterMin} mode={actionsMode} onAction={onAction} />,
    },
  ];

  const chips = filterChips(table.filters, complements.data?.groups, t);

  return (
    <>
      <PageHeader
        title={t('resellers.title')}
        actions={
          <>
            <ExportMenu path="/resellers/export" query={table.filters} testId="resellers-export" />
            <Button component={Link} to="/resellers/add" leftSection={<IconUserPlus size={18} />} data-testid="reseller-create">
              {t('resellers.create')}
            </Button>
          </>
        }
      />
      <Stack gap="sm">
        <ResellerFilterBar filters={table.filters} groups={complements.data?.groups} onChange={table.setFilters} />
        <FilterChips chips={chips} onRemove={(k) => table.removeFilter(k as keyof typeof table.filters & string)} onClearAll={table.clearFilters} />
        <ListTable columns={columns} query={query} table={table} testId="resellers-table" rowTestId={(r) => `reseller-row-${r.id}`} emptyText={t('resellers.empty')} />
      </Stack>
      <CreditModal reseller={creditRow} isAdmin={isAdmin} onClose={() => setCreditRow(null)} />
      <DeactivateModal reseller={deactivateRow} onClose={() => setDeactivateRow(null)} />
    </>
  );
}
