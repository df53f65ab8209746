import { Button, Card, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPencil, IconWorldWww } from '@tabler/icons-react';
import { Link, useParams } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { ExportMenu } from '../../components/ExportMenu';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { DEFAULT_PER, type PerOption } from '../../components/pagerMath';
import { ResponsiveTable } from '../../components/table/ResponsiveTable';
import { useGoBack } from '../../components/useGoBack';
import i18n from '../../i18n';
import { useLedger, useReseller } from './api';
import { formatDateTime, formatDelta, formatNumber } from '../../lib/format';
import { StatusBadge } from './StatusBadge';
import { groupName } from './groupName';
import type { LedgerEntry } from '../../api/types';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { isValidId } from '../../lib/ids';
import './texts';

/** Translated ledger reason (unknown reasons are shown as they come). */
export function reasonText(reason: string): string {
  const key = `resellers.ledger.reasons.${reason}`;
  return i18n.exists(key) ? i18n.t(key) : reason;
}

function Stat({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Card withBorder padding="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} size="xl" data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}

/** /resellers/{id} — username, sub-reseller count, balance, a few details and the paged credit history. */
export function ResellerDetailPage() {
  const { t } = useTranslation();
  const { resellerId } = useParams({ from: '/auth/manager/resellers/$resellerId' });
  const id = Number(resellerId);
  const valid = isValidId(id);
  const reseller = useReseller(valid ? id : 0);
  const goBack = useGoBack('/resellers');
  const [page, setPage] = useState(1);
  const [per, setPer] = useState<PerOption>(DEFAULT_PER);
  const ledger = useLedger(valid ? id : 0, page, per);
  const r = reseller.data;
  const params = { resellerId: String(id) };

  const header = (
    <PageHeader
      title={r ? t('resellers.detail.title', { username: r.username }) : t('resellers.detail.loading')}
      actions={
        <>
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={goBack} data-testid="reseller-back">
            {t('common.back')}
          </Button>
          {r && (
            <>
              <Button
                variant="light"
                leftSection={<IconPencil size={16} />}
                renderRoot={(props) => <Link {...props} to="/resellers/$resellerId/edit" params={params} />}
                data-testid="reseller-detail-edit"
              >
                {t('common.edit')}
              </Button>
              <Button
                variant="light"
                leftSection={<IconWorldWww size={16} />}
                renderRoot={(props) => <Link {...props} to="/resellers/$resellerId/add_domains" params={params} />}
                data-testid="reseller-detail-domains"
              >
                {t('resellers.actions.domains')}
              </Button>
            </>
          )}
        </>
      }
    />
  );

  if (!valid || reseller.isError) {
    return (
      <Stack gap={0}>
        {header}
        <LoadErrorAlert onRetry={reseller.refetch} notFound={!valid || (isApiError(reseller.error) && reseller.error.status === 404)} testId="reseller-error" />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Stack gap={0}>{header}</Stack>
      {!r ? (
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          {[1, 2, 3, 4].map((i) => (
            <Skeleton key={i} h={72} />
          ))}
        </SimpleGrid>
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <Stat label={t('resellers.fields.username')} value={r.username} testId="reseller-detail-username" />
            <Stat label={t('resellers.fields.subResellers')} value={r.sub_resellers_count} testId="reseller-detail-sub-count" />
            <Stat label={t('resellers.detail.balance')} value={formatNumber(r.credits)} testId="reseller-detail-credits" />
            <Stat label={t('resellers.fields.clients')} value={r.clients_count} testId="reseller-detail-clients" />
          </SimpleGrid>
          <Paper withBorder p="sm" radius="md">
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs" verticalSpacing="xs">
              <Detail label={t('resellers.fields.status')} value={<StatusBadge status={r.status} />} />
              <Detail label={t('resellers.fields.group')} value={groupName(r.group_name, r.group_type)} />
              <Detail label={t('resellers.fields.master')} value={r.master_username ?? '—'} />
              <Detail label={t('resellers.fields.lastLogin')} value={r.last_login ? formatDateTime(r.last_login) : t('resellers.never')} />
              <Detail label={t('resellers.fields.email')} value={r.email || '—'} />
              <Detail label={t('resellers.fields.whatsapp')} value={r.whatsapp || '—'} />
              <Detail label={t('resellers.fields.telegram')} value={r.telegram || '—'} />
              <Detail label={t('resellers.fields.notes')} value={r.notes || '—'} />
            </SimpleGrid>
          </Paper>
        </>
      )}

      <Group justify="space-between" gap="xs">
        <Title order={2} size="h4">
          {t('resellers.ledger.title')}
        </Title>
        {valid && <ExportMenu path={`/resellers/${id}/ledger/export`} query={{}} testId="ledger-export" />}
      </Group>
      {ledger.isError && (
        <LoadErrorAlert onRetry={() => ledger.refetch()} />
      )}
      <ResponsiveTable<LedgerEntry>
        minHeight={160}
        records={ledger.data?.data ?? []}
        fetching={ledger.isFetching}
        loading={ledger.isPending && !ledger.isError}
        noRecordsText={t('resellers.ledger.empty')}
        testId="ledger-table"
        rowTestId={(l) => `ledger-row-${l.id}`}
        columns={[
          { accessor: 'created_at', title: t('resellers.ledger.date'), noWrap: true, render: (l) => formatDateTime(l.created_at) },
          {
            accessor: 'delta',
            title: t('resellers.ledger.delta'),
            textAlign: 'right',
            render: (l) => (
              <Text span fw={600} size="sm" c={l.delta > 0 ? 'teal' : l.delta < 0 ? 'red' : undefined}>
                {formatDelta(l.delta)}
              </Text>
            ),
          },
          { accessor: 'balance_after', title: t('resellers.ledger.balanceAfter'), textAlign: 'right', render: (l) => formatNumber(l.balance_after) },
          { accessor: 'reason', title: t('resellers.ledger.reason'), card: 'title', render: (l) => reasonText(l.reason) },
          { accessor: 'counterparty', title: t('resellers.ledger.counterparty'), render: (l) => l.counterparty ?? '—' },
        ]}
      />
      {ledger.data && ledger.data.meta.total > 0 && (
        <Pager
          page={page}
          pages={ledger.data.meta.pages}
          total={ledger.data.meta.total}
          per={per}
          onPageChange={setPage}
          onPerChange={(n) => {
            setPer(n);
            setPage(1);
          }}
        />
      )}
    </Stack>
  );
}

function Detail({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}:
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-word' }}>
        {value}
      </Text>
    </Group>
  );
}
