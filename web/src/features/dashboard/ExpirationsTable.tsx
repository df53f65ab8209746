import { ActionIcon, Group, Paper, Stack, Switch, Text, Title, Tooltip } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { IconBrandWhatsapp, IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDialog } from '../../components/confirm';
import { ExpiryBadge } from '../../components/ExpiryBadge';
import { Pager } from '../../components/Pager';
import { DEFAULT_PER, type PageCursors, type PerOption } from '../../components/pagerMath';
import { type ResponsiveColumn, ResponsiveTable } from '../../components/table/ResponsiveTable';
import { useProfile } from '../../api/profile';
import { cut, formatDateTime, formatNumber } from '../../lib/format';
import { useNowSec } from '../../lib/useNowSec';
import { useWhatsAppDialog } from '../lines/whatsAppDialog';
import type { Line } from '../../api/types';
import { type SortOrder, useExpiring, useFlashRenew } from './api';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import './texts';

/** WhatsApp message (the same choices as /users) and one-month flash renew of a line. */
function RowActions({ line, onWhatsApp }: { line: Line; onWhatsApp: (line: Line) => void }) {
  const { t } = useTranslation();
  const profile = useProfile();
  const renew = useFlashRenew(); // a retry of this renewal reuses its key: one charge

  const onRenew = async () => {
    const isAdmin = profile.data?.type === 'admin';
    const cost = isAdmin ? 0 : line.max_connections;
    const balance = profile.data?.credits;
    const ok = await confirmDialog({
      title: t('dashboard.expirations.renewTitle'),
      message: (
        <Stack gap={4}>
          <Text size="sm">{t('dashboard.expirations.renewConfirm', { username: line.username })}</Text>
          <Text size="sm" fw={600} data-testid="renew-cost">
            {isAdmin ? t('dashboard.expirations.renewFree') : t('dashboard.expirations.renewCost', { count: cost })}
          </Text>
          {!isAdmin && balance !== undefined && (
            <Text size="sm" c={balance < cost ? 'red' : 'dimmed'}>
              {t('dashboard.expirations.renewBalance', { balance: formatNumber(balance), after: formatNumber(Math.max(balance - cost, 0)) })}
            </Text>
          )}
        </Stack>
      ),
      confirmLabel: t('dashboard.expirations.renewAction'),
      cancelLabel: t('common.cancel'),
    });
    if (!ok) return;
    // awaited (not a callback): the renewed row may leave the table before the answer is handled
    await renew.mutateAsync({ id: line.id });
    notifySuccess(t('dashboard.expirations.renewSuccess'));
  };

  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Tooltip label={t('dashboard.expirations.whatsapp')}>
        <ActionIcon
          variant="light"
          color={line.whatsapp ? 'green' : 'gray'}
          size="lg"
          onClick={() => onWhatsApp(line)}
          aria-label={t('dashboard.expirations.whatsappAria', { username: line.username })}
          data-testid={`expiring-whatsapp-${line.id}`}
        >
          <IconBrandWhatsapp size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('dashboard.expirations.renewAction')}>
        <ActionIcon
          variant="light"
          size="lg"
          loading={renew.isPending}
          onClick={() => void onRenew()}
          aria-label={t('dashboard.expirations.renewAria', { username: line.username })}
          data-testid={`expiring-renew-${line.id}`}
        >
          <IconRefresh size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/**
 * "Upcoming expirations": enabled, non-trial lines by expiry, asc/desc switch, its own pager
 * (hidden at one page), WhatsApp reminder and one-month flash renew per row.
 */
export function ExpirationsTable() {
  const { t } = useTranslation();
  const [order, setOrder] = useState<SortOrder>('asc');
  const [{ page, cursor }, setPaging] = useState<{ page: number; cursor?: PageCursors }>({ page: 1 });
  const setPage = (p: number, c?: PageCursors) => setPaging({ page: p, cursor: c });
  const [per, setPer] = useState<PerOption>(DEFAULT_PER);
  const query = useExpiring(order, page, per, cursor);
  const now = useNowSec();
  const whatsapp = useWhatsAppDialog();
  const lines = query.data?.data ?? [];
  const meta = query.data?.meta;
  const lastPage = meta?.pages ?? 0;
  // Rows may disappear (renewed elsewhere, removed): never stay on a page past the end.
  useEffect(() => {
    if (lastPage > 0 && page > lastPage) setPaging({ page: lastPage });
  }, [lastPage, page]);

  const columns: ResponsiveColumn<Line>[] = [
    { accessor: 'id', title: t('dashboard.expirations.id'), width: 70, visibleFrom: 'md', card: 'none' },
    { accessor: 'username', title: t('dashboard.expirations.username'), card: 'title', breakWords: true },
    { accessor: 'password', title: t('dashboard.expirations.password') },
    { accessor: 'master_username', title: t('dashboard.expirations.master'), render: (l) => l.master_username ?? '—' },
    {
      accessor: 'exp_date',
      title: t('dashboard.expirations.expiry'),
      noWrap: true,
      cardOrder: -1,
      render: (l) => (
        <Stack gap={2}>
          <Text size="sm" data-testid="expiring-date">
            {formatDateTime(l.exp_date)}
          </Text>
          <ExpiryBadge expDate={l.exp_date} now={now} size="sm" />
        </Stack>
      ),
    },
    { accessor: 'whatsapp', title: t('dashboard.expirations.whatsappCol'), render: (l) => cut(l.whatsapp) || '—' },
    { accessor: 'actions', title: t('common.actions'), textAlign: 'right', width: 110, card: 'actions', render: (l) => <RowActions line={l} onWhatsApp={whatsapp.open} /> },
  ];

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="expirations">
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="xs" wrap="wrap">
          <Title order={2} size="h4">
            {t('dashboard.expirations.title')}
          </Title>
          <Switch
            label={t('dashboard.expirations.sortDesc')}
            checked={order === 'desc'}
            onChange={(e) => {
              setOrder(e.currentTarget.checked ? 'desc' : 'asc');
              setPage(1);
            }}
            data-testid="expirations-order"
          />
        </Group>
        {query.isError && (
          <LoadErrorAlert onRetry={() => query.refetch()} testId="expirations-error" />
        )}
        <ResponsiveTable<Line>
          minHeight={150}
          columns={columns}
          records={lines}
          fetching={query.isFetching}
          loading={query.isPending && !query.isError}
          noRecordsText={t('dashboard.expirations.empty')}
          rowTestId={(l) => `expiring-row-${l.id}`}
        />
        {meta && (
          <Pager
            page={page}
            pages={meta.pages}
            total={meta.total}
            capped={meta.capped}
            per={per}
            next={meta.next}
            prev={meta.prev}
            onPageChange={setPage}
            onPerChange={(n) => {
              setPer(n);
              setPage(1);
            }}
            hideWhenSingle
          />
        )}
      </Stack>
      {whatsapp.modal}
    </Paper>
  );
}
