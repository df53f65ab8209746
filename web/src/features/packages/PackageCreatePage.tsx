import { Button, Paper, Stack } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { IconArrowLeft } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useSavePackage } from './api';
import { EMPTY_PACKAGE, PackageForm } from './PackageForm';
import { useGoBack } from '../../components/useGoBack';

/** /packages/new — full package form; success goes to the package list sorted newest first. */
export function PackageCreatePage() {
  const { t } = useTranslation();
  const save = useSavePackage();
  const navigate = useNavigate();
  const goBack = useGoBack('/packages');
  return (
    <Stack gap={0} maw={900}>
      <PageHeader
        title={t('packages.createTitle')}
        actions={
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={goBack} data-testid="package-back">
            {t('common.back')}
          </Button>
        }
      />
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        <PackageForm
          initial={EMPTY_PACKAGE}
          onCancel={goBack}
          onSubmit={async (values) => {
            await save.mutateAsync(values);
            notifySuccess(t('packages.created'));
            await navigate({ to: '/packages', search: { order_by: 'id,desc' } });
          }}
        />
      </Paper>
    </Stack>
  );
}
