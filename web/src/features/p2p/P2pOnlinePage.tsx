import { Button, Group, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import type { P2pOnlineRow } from '../../api/types';
import { PageHeader } from '../../components/PageHeader';
import { type ResponsiveColumn, ResponsiveTable } from '../../components/table/ResponsiveTable';
import { formatElapsed, formatNumber } from '../../lib/format';
import { useP2pConfigured } from '../../api/complements';
import { useP2pOnline } from '../../api/p2pOnline';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { P2pNotConfigured } from './P2pNotConfigured';

/** /p2p_users/connections — who watches over P2P now, from the P2P server (refreshed every 15 s). */
export function P2pOnlinePage() {
  const { t } = useTranslation();
  // Without the P2P server there is no list: say so (and whom to ask), no request.
  const configured = useP2pConfigured();
  const online = useP2pOnline(configured === true);
  const notConfigured = configured === false || (isApiError(online.error) && online.error.code === 'NOT_CONFIGURED');
  const rows = online.data ?? [];

  const columns: ResponsiveColumn<P2pOnlineRow>[] = [
    { accessor: 'username', title: t('p2p.online.user'), noWrap: true, card: 'title' },
    { accessor: 'channel_name', title: t('p2p.online.channel') },
    { accessor: 'duration', title: t('p2p.online.time'), noWrap: true, render: (r) => <Text size="sm" ff="monospace">{formatElapsed(r.duration)}</Text> },
    { accessor: 'external_ip', title: t('p2p.online.ip'), noWrap: true },
    { accessor: 'app_version', title: t('p2p.online.appVersion'), noWrap: true },
    { accessor: 'app_name', title: t('p2p.online.appName'), noWrap: true },
  ];

  return (
    <>
      <PageHeader
        title={t('p2p.online.title')}
        actions={
          !notConfigured && (
            <Button variant="default" leftSection={<IconRefresh size={16} />} loading={online.isFetching} onClick={() => void online.refetch()} data-testid="p2p-online-refresh">
              {t('common.refresh')}
            </Button>
          )
        }
      />
      {notConfigured ? (
        <P2pNotConfigured online mb="0" testId="p2p-online-not-configured" />
      ) : online.isError ? (
        <LoadErrorAlert onRetry={() => online.refetch()} testId="p2p-online-error" />
      ) : (
        <>
          <Group mb="xs">
            <Text size="sm" c="dimmed" data-testid="p2p-online-count">
              {t('p2p.online.count', { count: rows.length, formatted: formatNumber(rows.length) })}
            </Text>
          </Group>
          <ResponsiveTable
            columns={columns}
            records={rows}
            idAccessor={(r) => `${r.username}|${r.external_ip}|${r.channel_name}`}
            loading={online.isPending}
            noRecordsText={t('p2p.online.empty')}
            testId="p2p-online-table"
            rowTestId={(r) => `p2p-online-${r.username}`}
          />
        </>
      )}
    </>
  );
}
