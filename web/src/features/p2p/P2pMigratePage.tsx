import { Alert, Paper, Stack, Text } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { formatNumber } from '../../lib/format';
import { useMigrateOldCredits } from './api';
import { OldLoginForm } from './OldLoginForm';

/** /p2p_migrate — moves the balance of an old P2P panel account into the caller's (once per old account). */
export function P2pMigratePage() {
  const { t } = useTranslation();
  const [done, setDone] = useState<{ old_username: string; credits_imported: number } | null>(null);
  // One key per attempt with the same login: a retry after a lost answer cannot credit twice.
  const migrate = useMigrateOldCredits();

  const submit = async (username: string, password: string) => {
    const r = await migrate.mutateAsync({ username, password });
    setDone(r);
    notifySuccess(t('p2p.old.creditsDone', { count: r.credits_imported, formatted: formatNumber(r.credits_imported) }));
    return true;
  };

  return (
    <Stack gap={0} maw={720}>
      <PageHeader title={t('p2p.old.creditsTitle')} />
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('p2p.old.creditsHint')}
          </Text>
          {done && (
            <Alert color="green" icon={<IconCircleCheck size={18} />} data-testid="p2p-migrate-done">
              {t('p2p.old.creditsResult', { username: done.old_username, count: done.credits_imported, formatted: formatNumber(done.credits_imported) })}
            </Alert>
          )}
          <OldLoginForm submitLabel={t('p2p.old.creditsSubmit')} onSubmit={submit} testId="p2p-migrate" />
        </Stack>
      </Paper>
    </Stack>
  );
}
