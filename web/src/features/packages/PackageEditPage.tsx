import { Alert, Button, Paper, Skeleton, Stack } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { IconArrowLeft } from '@tabler/icons-react';
import { useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { usePackage, useSavePackage } from './api';
import { PackageForm } from './PackageForm';
import { useGoBack } from '../../components/useGoBack';

/** /packages/{id}/edit — Cancel, Back and a successful save return to the previous page. */
export function PackageEditPage() {
  const { t } = useTranslation();
  const { packageId } = useParams({ from: '/auth/admin/packages/$packageId/edit' });
  const id = Number(packageId);
  const valid = Number.isInteger(id) && id > 0;
  const pkg = usePackage(valid ? id : 0);
  const save = useSavePackage(id);
  const goBack = useGoBack('/packages');

  const back = (
    <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={goBack} data-testid="package-back">
      {t('common.back')}
    </Button>
  );

  return (
    <Stack gap={0} maw={900}>
      <PageHeader title={t('packages.editTitle', { id: valid ? id : '?' })} actions={back} />
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        {!valid || pkg.isError ? (
          <Alert color="red" data-testid="package-error">
            {valid ? t('common.loadError') : t('errors.NOT_FOUND')}
          </Alert>
        ) : !pkg.data ? (
          <Stack>
            {[1, 2, 3, 4].map((i) => (
              <Skeleton key={i} h={40} />
            ))}
          </Stack>
        ) : (
          <PackageForm
            key={pkg.data.id}
            initial={pkg.data}
            onCancel={goBack}
            onSubmit={async ({ package_name, bouquets, ...rest }) => {
              await save.mutateAsync({ package_name, bouquets, ...rest });
              notifySuccess(t('packages.updated'));
              goBack();
            }}
          />
        )}
      </Paper>
    </Stack>
  );
}
