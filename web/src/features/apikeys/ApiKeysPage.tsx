import { ActionIcon, Anchor, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import type { ApiKey } from '../../api/types';
import { confirmDialog } from '../../components/confirm';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { ResponsiveTable } from '../../components/table/ResponsiveTable';
import { formatDateTime } from '../../lib/format';
import { useApiKeys, useRevokeApiKey } from './api';
import { WebhooksSection } from './WebhooksSection';
import { textKey } from './textKey';
import './texts';

// The dialogs load when opened: the date picker and the form inputs stay out of the page's first load.
const CreateKeyModal = lazy(() => import('./CreateKeyModal').then((m) => ({ default: m.CreateKeyModal })));

const status = (k: ApiKey, now: number) => (k.revoked_at !== null ? 'revoked' : k.expires_at !== null && k.expires_at <= now ? 'expired' : 'active');
const COLORS = { active: 'green', revoked: 'gray', expired: 'orange' } as const;

/** /profile/api — the account's API keys: create (shown once), scopes, addresses, last use, revoke. */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const list = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const now = Math.floor(Date.now() / 1000);

  const onRevoke = async (k: ApiKey) => {
    if (!(await confirmDialog({ title: t('apiKeys.revokeTitle'), message: t('apiKeys.revokeConfirm', { name: k.name }), confirmLabel: t('apiKeys.revoke'), danger: true }))) return;
    await revoke.mutateAsync(k.id);
    notifySuccess(t('apiKeys.revoked_done'));
  };

  return (
    <Stack gap="sm">
      <PageHeader
        title={t('apiKeys.title')}
        actions={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)} data-testid="api-key-create">
            {t('apiKeys.create')}
          </Button>
        }
      />
      <Text size="sm" c="dimmed">
        {t('apiKeys.help')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('apiKeys.docs')}{' '}
        {/* the documentation this server serves (Swagger UI at /api/docs): a reseller has no repository to read */}
        <Anchor href="/api/docs" target="_blank" rel="noopener" size="xs" data-testid="api-docs-link">
          {t('apiKeys.docsLink')}
        </Anchor>
      </Text>
      {list.isError && <LoadErrorAlert onRetry={() => list.refetch()} />}
      <ResponsiveTable<ApiKey>
        records={list.data ?? []}
        fetching={list.isFetching}
        loading={list.isPending}
        noRecordsText={t('apiKeys.empty')}
        testId="api-keys-table"
        rowTestId={(k) => `api-key-row-${k.id}`}
        columns={[
          { accessor: 'name', title: t('apiKeys.name'), card: 'title' },
          {
            accessor: 'status',
            title: t('apiKeys.status'),
            render: (k) => {
              const s = status(k, now);
              return (
                <Badge size="sm" variant="light" color={COLORS[s]} data-testid={`api-key-status-${k.id}`}>
                  {t(`apiKeys.${s}`)}
                </Badge>
              );
            },
          },
          {
            accessor: 'scopes',
            title: t('apiKeys.scopes'),
            render: (k) => (
              <Group gap={4} wrap="wrap" component="span">
                {k.scopes.map((s) => (
                  <Badge key={s} size="sm" variant="outline">
                    {t(`apiKeys.scope.${textKey(s)}`)}
                  </Badge>
                ))}
              </Group>
            ),
          },
          { accessor: 'allowed_ips', title: t('apiKeys.allowedIps'), render: (k) => <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{k.allowed_ips.length ? k.allowed_ips.join(', ') : t('apiKeys.allowedIpsAny')}</Text> },
          {
            accessor: 'last_used_at',
            title: t('apiKeys.lastUse'),
            render: (k) => (k.last_used_at === null ? t('apiKeys.neverUsed') : `${formatDateTime(k.last_used_at)} · ${k.last_used_ip ?? ''}`),
          },
          { accessor: 'expires_at', title: t('apiKeys.expires'), visibleFrom: 'md', render: (k) => (k.expires_at === null ? t('apiKeys.never') : formatDateTime(k.expires_at)) },
          { accessor: 'created_at', title: t('apiKeys.created'), noWrap: true, visibleFrom: 'md', render: (k) => formatDateTime(k.created_at) },
          {
            accessor: 'actions',
            title: t('common.actions'),
            textAlign: 'right',
            width: 80,
            card: 'actions',
            render: (k) =>
              k.revoked_at === null ? (
                <Tooltip label={t('apiKeys.revoke')}>
                  <ActionIcon variant="subtle" color="red" aria-label={t('apiKeys.revokeAria', { name: k.name })} onClick={() => void onRevoke(k)} data-testid={`api-key-revoke-${k.id}`}>
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              ) : null,
          },
        ]}
      />
      {creating && (
        <Suspense fallback={null}>
          <CreateKeyModal opened onClose={() => setCreating(false)} />
        </Suspense>
      )}
      <WebhooksSection />
    </Stack>
  );
}
