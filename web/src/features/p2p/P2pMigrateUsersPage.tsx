import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { notifySuccess, toast } from '../../api/notify';
import { IconAlertTriangle, IconCircleCheck, IconDatabaseImport } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { P2pImportRow } from '../../api/types';
import { confirmDialog } from '../../components/confirm';
import { PageHeader } from '../../components/PageHeader';
import { type ResponsiveColumn, ResponsiveTable } from '../../components/table/ResponsiveTable';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useAttachOldLogin, useImportPreview, useMigrateOldClients } from './api';
import { OldLoginForm } from './OldLoginForm';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { P2pNotConfigured } from './P2pNotConfigured';
import { useP2pConfigured } from '../../api/complements';

/** /p2p_migrate_users — sign in to the old P2P panel, see its clients, import them all (refused while any conflicts). */
export function P2pMigrateUsersPage() {
  const { t } = useTranslation();
  const preview = useImportPreview();
  const [imported, setImported] = useState<number | null>(null);
  const attachLogin = useAttachOldLogin();
  const importClients = useMigrateOldClients();
  // Imported clients could never reach a missing P2P server: the import is refused (503), say so first.
  const p2pOff = useP2pConfigured() === false;
  const rows = preview.data?.data ?? [];

  const attach = async (username: string, password: string) => {
    const r = await attachLogin.mutateAsync({ username, password });
    // a reply without login shows the server's message.
    if (!r.login) {
      toast({ color: 'red', title: t('common.error'), message: r.message });
      return false;
    }
    notifySuccess(r.message);
    setImported(null);
    return true;
  };

  const migrate = async () => {
    const ok = await confirmDialog({
      title: t('p2p.import.confirmTitle'),
      message: t('p2p.import.confirm', { count: rows.length, formatted: formatNumber(rows.length) }),
      confirmLabel: t('p2p.import.submit'),
    });
    if (!ok) return;
    const r = await importClients.mutateAsync(undefined);
    setImported(r.imported);
    notifySuccess(t('p2p.import.done', { count: r.imported, formatted: formatNumber(r.imported) }));
  };

  const columns: ResponsiveColumn<P2pImportRow>[] = [
    { accessor: 'id', title: t('p2p.columns.id'), noWrap: true, card: 'none' },
    { accessor: 'email', title: t('p2p.columns.email'), noWrap: true, card: 'title' },
    { accessor: 'password', title: t('p2p.columns.password'), noWrap: true, render: (r) => <Text size="sm" ff="monospace">{r.password}</Text> },
    { accessor: 'created', title: t('p2p.columns.created'), noWrap: true, render: (r) => formatDateTime(r.created) },
    { accessor: 'expiracao', title: t('p2p.columns.expiry'), noWrap: true, render: (r) => formatDateTime(r.expiracao) },
    {
      accessor: 'import',
      title: t('p2p.import.available'),
      noWrap: true,
      render: (r) => (
        <Badge color={r.import ? 'teal' : 'red'} variant="light" style={{ textTransform: 'none' }} data-testid={`p2p-import-${r.id}`} data-import={r.import}>
          {r.import ? t('common.yes') : t(`p2p.import.reasons.${r.reason ?? 'invalid'}`)}
        </Badge>
      ),
    },
    { accessor: 'status', title: t('p2p.columns.status'), noWrap: true, render: (r) => t(`p2p.status.${r.status}`, { defaultValue: String(r.status) }) },
  ];

  const conflicts = preview.data?.conflicts ?? 0;

  return (
    <Stack gap={0}>
      <PageHeader title={t('p2p.import.title')} />
      {p2pOff && <P2pNotConfigured />}
      {imported !== null && (
        <Alert color="green" icon={<IconCircleCheck size={18} />} mb="sm" data-testid="p2p-import-done">
          {t('p2p.import.done', { count: imported, formatted: formatNumber(imported) })}
        </Alert>
      )}
      {preview.isPending ? (
        <Skeleton h={160} />
      ) : preview.isError ? (
        <LoadErrorAlert onRetry={() => preview.refetch()} testId="p2p-import-error" />
      ) : rows.length === 0 ? (
        <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {preview.data?.attached ? t('p2p.import.noClients', { username: preview.data.old_username ?? '' }) : t('p2p.import.loginHint')}
            </Text>
            <OldLoginForm submitLabel={t('p2p.import.login')} onSubmit={attach} testId="p2p-import-login" />
          </Stack>
        </Paper>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between">
            <Text size="sm">
              {t('p2p.import.from', { username: preview.data?.old_username ?? '', count: rows.length, formatted: formatNumber(rows.length) })}
            </Text>
            {conflicts > 0 ? (
              <Alert color="orange" py={6} icon={<IconAlertTriangle size={16} />} data-testid="p2p-import-conflicts">
                {t('p2p.import.conflicts', { count: conflicts, formatted: formatNumber(conflicts) })}
              </Alert>
            ) : (
              <Button color="teal" leftSection={<IconDatabaseImport size={18} />} loading={importClients.isPending} disabled={p2pOff} onClick={() => void migrate()} data-testid="p2p-import-submit">
                {t('p2p.import.submit')}
              </Button>
            )}
          </Group>
          <ResponsiveTable columns={columns} records={rows} idAccessor="id" noRecordsText={t('common.noRecords')} testId="p2p-import-table" rowTestId={(r) => `p2p-import-row-${r.id}`} />
        </Stack>
      )}
    </Stack>
  );
}
