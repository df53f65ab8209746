import { useParams } from '@tanstack/react-router';
import { notifySuccess } from '../../api/notify';
import { Alert, Button, Paper, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { PageHeader } from '../../components/PageHeader';
import { useGoBack } from '../../components/useGoBack';
import { isValidId, useReseller, useUpdateReseller } from './api';
import { EMPTY_RESELLER, ResellerForm, type ResellerFormValues } from './ResellerForm';
import type { ResellerDetail, ResellerUpdate } from '../../api/types';

const toValues = (r: ResellerDetail): ResellerFormValues => ({
  ...EMPTY_RESELLER,
  username: r.username,
  email: r.email ?? '',
  whatsapp: r.whatsapp ?? '',
  telegram: r.telegram ?? '',
  notes: r.notes ?? '',
});

/** Update body: only the changed fields; an empty password keeps the current one, emptied texts clear the field. */
function toUpdateBody(v: ResellerFormValues, before: ResellerFormValues): ResellerUpdate {
  const body: ResellerUpdate = {};
  for (const f of ['username', 'email', 'whatsapp', 'telegram', 'notes'] as const) {
    const text = v[f].trim();
    if (text !== before[f].trim()) body[f] = text;
  }
  if (v.password) body.password = v.password;
  return body;
}

/** /resellers/{id}/edit — prefilled; success shows "Revendedor atualizado!" and goes back. */
export function ResellerEditPage() {
  const { t } = useTranslation();
  const { resellerId } = useParams({ from: '/auth/manager/resellers/$resellerId/edit' });
  const id = Number(resellerId);
  const valid = isValidId(id);
  const reseller = useReseller(valid ? id : 0);
  const update = useUpdateReseller(id);
  const goBack = useGoBack('/resellers');

  return (
    <Stack gap={0} maw={900}>
      <PageHeader
        title={t('resellers.editTitle', { username: reseller.data?.username ?? `#${resellerId}` })}
        actions={
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={goBack} data-testid="reseller-back">
            {t('common.back')}
          </Button>
        }
      />
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        {!valid || reseller.isError ? (
          <Alert color="red" data-testid="reseller-error">
            {!valid || (isApiError(reseller.error) && reseller.error.status === 404) ? t('errors.NOT_FOUND') : t('common.loadError')}
          </Alert>
        ) : !reseller.data ? (
          <Stack>
            {[1, 2, 3, 4].map((i) => (
              <Skeleton key={i} h={40} />
            ))}
          </Stack>
        ) : (
          <ResellerForm
            key={reseller.data.id}
            mode="edit"
            initial={toValues(reseller.data)}
            onCancel={goBack}
            onSubmit={async (values) => {
              await update.mutateAsync(toUpdateBody(values, toValues(reseller.data!)));
              notifySuccess(t('resellers.form.updated'));
              goBack();
            }}
          />
        )}
      </Paper>
    </Stack>
  );
}
