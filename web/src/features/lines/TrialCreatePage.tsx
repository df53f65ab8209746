import { Alert, Button, Group, Menu, Paper, Stack, Text } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { IconBolt, IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { FormPageShell } from '../../components/FormPageShell';
import { useGoBack } from '../../components/useGoBack';
import { useComplements } from '../../api/complements';
import { useCreateTrialLine } from './api';
import { trialPackages } from './packages';
import { CreatedDialog, useCreatedDialog } from './CreatedDialog';
import { randomCredential } from './format';
import { LineForm, lineFormBody } from './LineForm';
import type { Line, Package } from '../../api/types';

/** /users/add_trial — free trial line (trial, non-official packages), plus one-click "create fast user". */
export function TrialCreatePage() {
  const { t } = useTranslation();
  const goBack = useGoBack('/users');
  const complements = useComplements();
  const packages = trialPackages(complements.data);
  const dialog = useCreatedDialog<Line>();
  const create = useCreateTrialLine();
  // The one-click user has its own button state (the form keeps its own).
  const createFast = useCreateTrialLine();

  const done = (line: Line) => {
    notifySuccess(t('users.created.trialSuccess'));
    dialog.show(line);
  };

  const fast = async (pkg: Package) => {
    done(await createFast.mutateAsync({ username: randomCredential(), password: randomCredential(), package_id: pkg.id }));
  };

  const fastUser = (
    <Stack gap="md" mb="md">
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        <Group justify="space-between" gap="sm">
          <Stack gap={2} style={{ flex: '1 1 220px' }}>
            <Text fw={600}>{t('users.fast.title')}</Text>
            <Text size="sm" c="dimmed">
              {t('users.fast.hint')}
            </Text>
          </Stack>
          <Menu position="bottom-end" shadow="md" width={260}>
            <Menu.Target>
              <Button color="orange" leftSection={<IconBolt size={18} />} rightSection={<IconChevronDown size={16} />} loading={createFast.isPending} disabled={packages.length === 0} data-testid="fast-user">
                {t('users.fast.button')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown data-testid="fast-user-menu">
              <Menu.Label>{t('users.fast.choose')}</Menu.Label>
              {packages.map((p) => (
                <Menu.Item key={p.id} onClick={() => void fast(p)} data-testid={`fast-user-${p.id}`}>
                  {p.package_name}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Paper>
      {complements.isSuccess && packages.length === 0 && (
        <Alert color="yellow" data-testid="trial-no-packages">
          {t('users.fast.noPackages')}
        </Alert>
      )}
    </Stack>
  );

  return (
    <>
      <FormPageShell title={t('users.trialTitle')} onBack={goBack} backTestId="user-back" aboveForm={fastUser}>
        <LineForm
          key={dialog.formKey}
          packages={packages}
          packagesLoading={complements.isLoading}
          withReminders
          submitLabel={t('users.trialSubmit')}
          onCancel={goBack}
          onSubmit={async (v, pkg) => {
            done(await create.mutateAsync(lineFormBody(v, pkg)));
          }}
        />
      </FormPageShell>
      <CreatedDialog
        line={dialog.created}
        title={t('users.created.trialSuccess')}
        onClose={dialog.close}
        onAnother={dialog.another}
      />
    </>
  );
}
