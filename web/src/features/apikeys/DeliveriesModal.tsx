import { Badge, Button, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import type { WebhookDelivery, WebhookEndpoint } from '../../api/types';
import { ResponsiveTable } from '../../components/table/ResponsiveTable';
import { formatDateTime } from '../../lib/format';
import { useDeliveries, useResend } from './webhooksApi';
import { textKey } from './textKey';
import './texts';

const COLORS: Record<string, string> = { pending: 'yellow', delivered: 'green', gave_up: 'red', cancelled: 'gray' };

/** An endpoint's last 50 deliveries (refreshed every few seconds), each with a resend button. */
export function DeliveriesModal({ endpoint, onClose }: { endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const { t } = useTranslation();
  const list = useDeliveries(endpoint?.id ?? null);
  const resend = useResend(endpoint?.id ?? 0);
  const resendOne = async (id: number) => {
    await resend.mutateAsync(id);
    notifySuccess(t('apiKeys.webhooks.resent'));
  };
  return (
    <Modal opened={endpoint !== null} onClose={onClose} centered size="xl" title={endpoint ? t('apiKeys.webhooks.deliveriesTitle', { url: endpoint.url }) : ''}>
      <ResponsiveTable<WebhookDelivery>
        records={list.data ?? []}
        fetching={list.isFetching}
        loading={list.isPending}
        noRecordsText={t('apiKeys.webhooks.deliveriesEmpty')}
        testId="webhook-deliveries"
        rowTestId={(d) => `webhook-delivery-${d.id}`}
        columns={[
          { accessor: 'type', title: t('apiKeys.webhooks.type'), card: 'title', render: (d) => t(`apiKeys.webhooks.event.${textKey(d.type)}`, { defaultValue: d.type }) },
          {
            accessor: 'state',
            title: t('apiKeys.webhooks.state'),
            render: (d) => (
              <Badge size="sm" variant="light" color={COLORS[d.state] ?? 'gray'} data-testid={`webhook-delivery-state-${d.id}`}>
                {t(`apiKeys.webhooks.states.${d.state}`, { defaultValue: d.state })}
              </Badge>
            ),
          },
          { accessor: 'attempts', title: t('apiKeys.webhooks.attempts'), textAlign: 'right' },
          {
            accessor: 'last_status',
            title: t('apiKeys.webhooks.answer'),
            breakWords: true,
            render: (d) => (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {[d.last_status, d.last_answer].filter((x) => x !== null && x !== undefined).join(' · ') || '—'}
              </Text>
            ),
          },
          { accessor: 'created_at', title: t('apiKeys.webhooks.when'), noWrap: true, render: (d) => formatDateTime(d.last_attempt_at ?? d.created_at) },
          {
            accessor: 'actions',
            title: t('common.actions'),
            textAlign: 'right',
            card: 'actions',
            render: (d) => (
              <Button size="compact-sm" variant="light" onClick={() => void resendOne(d.id)} data-testid={`webhook-resend-${d.id}`}>
                {t('apiKeys.webhooks.resend')}
              </Button>
            ),
          },
        ]}
      />
    </Modal>
  );
}
