import { ActionIcon, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EdgeServer } from '../../api/types';
import { confirmDelete } from '../../components/confirm';
import { PageHeader } from '../../components/PageHeader';
import { ResponsiveTable } from '../../components/table/ResponsiveTable';
import { formatDateTime } from '../../lib/format';
import { useDefaultEdge, useRemoveServer, useServers } from './api';
import { RegisterServerModal } from './RegisterServerModal';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import './texts';

/** /servers — the streaming edges that ask the panel before serving (nginx auth_request): list, register (key shown once), remove. */
export function ServersPage() {
  const { t } = useTranslation();
  const list = useServers();
  const remove = useRemoveServer();
  const defaultEdge = useDefaultEdge().data ?? '';
  const [registering, setRegistering] = useState(false);

  const onRemove = async (s: EdgeServer) => {
    if (!(await confirmDelete(t('servers.removeTitle'), t('servers.removeConfirm', { name: s.name })))) return;
    await remove.mutateAsync(s.id);
    notifySuccess(t('servers.removed'));
  };

  return (
    <Stack gap="sm">
      <PageHeader
        title={t('servers.title')}
        actions={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setRegistering(true)} data-testid="server-register">
            {t('servers.register')}
          </Button>
        }
      />
      <Text size="sm" c="dimmed">
        {t('servers.help')}
      </Text>
      {list.isError && (
        <LoadErrorAlert onRetry={() => list.refetch()} />
      )}
      <ResponsiveTable<EdgeServer>
        records={list.data ?? []}
        fetching={list.isFetching}
        loading={list.isPending}
        noRecordsText={t('servers.empty')}
        testId="servers-table"
        rowTestId={(s) => `server-row-${s.id}`}
        columns={[
          { accessor: 'id', title: 'ID', width: 70, card: 'none' },
          {
            accessor: 'name',
            title: t('servers.name'),
            card: 'title',
            render: (s) => (
              <Group gap={6} wrap="wrap" component="span">
                {s.name}
                {String(s.id) === defaultEdge && (
                  <Badge size="sm" variant="light" data-testid={`server-default-${s.id}`}>
                    {t('servers.default')}
                  </Badge>
                )}
              </Group>
            ),
          },
          { accessor: 'url', title: t('servers.url'), render: (s) => <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{s.url}</Text> },
          { accessor: 'created_at', title: t('servers.created'), noWrap: true, visibleFrom: 'md', render: (s) => formatDateTime(s.created_at) },
          {
            accessor: 'actions',
            title: t('common.actions'),
            textAlign: 'right',
            width: 80,
            card: 'actions',
            render: (s) => (
              <Tooltip label={t('common.delete')}>
                <ActionIcon variant="subtle" color="red" aria-label={t('servers.removeAria', { name: s.name })} onClick={() => void onRemove(s)} data-testid={`server-remove-${s.id}`}>
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            ),
          },
        ]}
      />
      <RegisterServerModal opened={registering} onClose={() => setRegistering(false)} />
    </Stack>
  );
}
