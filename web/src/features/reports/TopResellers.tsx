import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TopReseller } from '../../api/types';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { ResponsiveTable } from '../../components/table/ResponsiveTable';
import { formatNumber } from '../../lib/format';
import { useTopResellers } from './api';
import './texts';

/** The caller's direct sub-resellers over the period, each counting its whole network, best first by credits spent (admins and masters). */
export function TopResellers({ from, to }: { from: string; to: string }) {
  const { t } = useTranslation();
  const query = useTopResellers({ from, to, limit: 10 });
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="reports-top">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            {t('reports.top.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('reports.top.help')}
          </Text>
        </div>
        {query.isError && <LoadErrorAlert onRetry={() => query.refetch()} testId="reports-top-error" />}
        <ResponsiveTable<TopReseller>
          columns={[
            { accessor: 'username', title: t('reports.top.username'), card: 'title', breakWords: true, render: (r, i) => `${i + 1}º ${r.username}` },
            { accessor: 'lines_created', title: t('reports.figures.lines_created'), textAlign: 'right', render: (r) => formatNumber(r.lines_created) },
            { accessor: 'renewals', title: t('reports.figures.renewals'), textAlign: 'right', render: (r) => formatNumber(r.renewals) },
            { accessor: 'credits_spent', title: t('reports.figures.credits_spent'), textAlign: 'right', render: (r) => formatNumber(r.credits_spent) },
          ]}
          records={query.data ?? []}
          idAccessor="reseller_id"
          loading={query.isPending && !query.isError}
          fetching={query.isFetching}
          noRecordsText={t('reports.top.empty')}
          testId="reports-top-table"
          rowTestId={(r) => `top-row-${r.reseller_id}`}
        />
      </Stack>
    </Paper>
  );
}
