import { ActionIcon, Badge, Button, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconList, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import type { WebhookEndpoint } from '../../api/types';
import { confirmDialog } from '../../components/confirm';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { ResponsiveTable } from '../../components/table/ResponsiveTable';
import { formatDateTime } from '../../lib/format';
import { useRemoveWebhook, useSendTest, useWebhooks } from './webhooksApi';
import { textKey } from './textKey';
import './texts';

// The dialogs load when opened (form inputs and the deliveries table stay out of the first load).
const CreateWebhookModal = lazy(() => import('./CreateWebhookModal').then((m) => ({ default: m.CreateWebhookModal })));
const DeliveriesModal = lazy(() => import('./DeliveriesModal').then((m) => ({ default: m.DeliveriesModal })));

/** The account's webhook endpoints: create (secret shown once), send a test, see deliveries, delete. */
export function WebhooksSection() {
  const { t } = useTranslation();
  const list = useWebhooks();
  const remove = useRemoveWebhook();
  const test = useSendTest();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<WebhookEndpoint | null>(null);

  const onRemove = async (w: WebhookEndpoint) => {
    if (!(await confirmDialog({ title: t('apiKeys.webhooks.removeTitle'), message: t('apiKeys.webhooks.removeConfirm', { url: w.url }), confirmLabel: t('apiKeys.webhooks.remove'), danger: true }))) return;
    await remove.mutateAsync(w.id);
    notifySuccess(t('apiKeys.webhooks.removed'));
  };
  const onTest = async (w: WebhookEndpoint) => {
    await test.mutateAsync(w.id);
    notifySuccess(t('apiKeys.webhooks.testSent'));
    setShown(w);
  };

  return (
    <Stack gap="sm" mt="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h3">
          {t('apiKeys.webhooks.title')}
        </Title>
        <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)} data-testid="webhook-create">
          {t('apiKeys.webhooks.create')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('apiKeys.webhooks.help')}
      </Text>
      {list.isError && <LoadErrorAlert onRetry={() => list.refetch()} />}
      <ResponsiveTable<WebhookEndpoint>
        records={list.data ?? []}
        fetching={list.isFetching}
        loading={list.isPending}
        noRecordsText={t('apiKeys.webhooks.empty')}
        testId="webhooks-table"
        rowTestId={(w) => `webhook-row-${w.id}`}
        columns={[
          { accessor: 'url', title: t('apiKeys.webhooks.url'), card: 'title', render: (w) => <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{w.url}</Text> },
          {
            accessor: 'events',
            title: t('apiKeys.webhooks.events'),
            render: (w) => (
              <Group gap={4} wrap="wrap" component="span">
                {w.events.map((e) => (
                  <Badge key={e} size="sm" variant="outline">
                    {t(`apiKeys.webhooks.event.${textKey(e)}`, { defaultValue: e })}
                  </Badge>
                ))}
              </Group>
            ),
          },
          { accessor: 'created_at', title: t('apiKeys.webhooks.created'), noWrap: true, visibleFrom: 'md', render: (w) => formatDateTime(w.created_at) },
          {
            accessor: 'actions',
            title: t('common.actions'),
            textAlign: 'right',
            card: 'actions',
            render: (w) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Tooltip label={t('apiKeys.webhooks.test')}>
                  <ActionIcon variant="subtle" aria-label={t('apiKeys.webhooks.test')} onClick={() => void onTest(w)} data-testid={`webhook-test-${w.id}`}>
                    <IconSend size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('apiKeys.webhooks.deliveries')}>
                  <ActionIcon variant="subtle" aria-label={t('apiKeys.webhooks.deliveries')} onClick={() => setShown(w)} data-testid={`webhook-deliveries-${w.id}`}>
                    <IconList size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('apiKeys.webhooks.remove')}>
                  <ActionIcon variant="subtle" color="red" aria-label={t('apiKeys.webhooks.removeAria', { url: w.url })} onClick={() => void onRemove(w)} data-testid={`webhook-remove-${w.id}`}>
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ),
          },
        ]}
      />
      {creating && (
        <Suspense fallback={null}>
          <CreateWebhookModal opened onClose={() => setCreating(false)} />
        </Suspense>
      )}
      {shown && (
        <Suspense fallback={null}>
          <DeliveriesModal endpoint={shown} onClose={() => setShown(null)} />
        </Suspense>
      )}
    </Stack>
  );
}
