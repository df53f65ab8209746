import { useParams } from '@tanstack/react-router';
import { notifySuccess } from '../../api/notify';
import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import type { P2pUser } from '../../api/types';
import { FormPageShell } from '../../components/FormPageShell';
import { WhenLoaded } from '../../components/WhenLoaded';
import { FormActions } from '../../components/FormActions';
import { useGoBack } from '../../components/useGoBack';
import { CredentialInput } from '../lines/CredentialInput';
import { LineEditSummary } from '../lines/LineEditSummary';
import { useP2pUser, useUpdateP2pUser } from './api';
import { isValidId } from '../../lib/ids';

/** The P2P login's local part: what comes before the @ (the domain is a setting). */
const USERNAME_RE = /^[A-Za-z0-9_.-]+$/;
const PASSWORD_RE = /^[A-Za-z0-9_.@-]+$/;

/** /p2p_users/{id}/edit — name, username (the part of the e-mail before the @), password. */
export function P2pEditPage() {
  const { t } = useTranslation();
  const { userId } = useParams({ from: '/auth/p2p_users/$userId/edit' });
  const id = Number(userId);
  const valid = isValidId(id);
  const user = useP2pUser(valid ? id : 0);
  const goBack = useGoBack('/p2p_users');

  return (
    <FormPageShell title={user.data ? t('p2p.editTitle', { email: user.data.email }) : t('users.editTitleId', { id: valid ? id : '?' })} onBack={goBack} backTestId="user-back">
      <WhenLoaded errorTestId="p2p-edit-error" valid={valid} query={user} rows={3}>
      {(data) => <EditForm key={data.id} user={data} onDone={goBack} />}
      </WhenLoaded>
    </FormPageShell>
  );
}

function EditForm({ user, onDone }: { user: P2pUser; onDone: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateP2pUser();
  const form = useForm({
    initialValues: { name: user.name, username: user.username, password: user.password === '0' ? '' : user.password },
    validate: {
      name: (v) => (!v.trim() || v.length > 100 ? t('p2p.form.nameRequired') : null),
      username: (v) => (v.length > 50 || !USERNAME_RE.test(v.trim()) ? t('p2p.form.usernameInvalid') : null),
      password: (v) => (v.length > 50 || !PASSWORD_RE.test(v.trim()) ? t('users.form.credentialInvalid') : null),
    },
  });

  const submit = form.onSubmit(async (v) => {
    try {
      await update.mutateAsync({ id: user.id, name: v.name.trim(), username: v.username.trim(), password: v.password.trim() });
      notifySuccess(t('p2p.edited'));
      onDone();
    } catch (e) {
      // the form marks the field the error names (the client has toasted it)
      if (isApiError(e) && e.field && e.field in v) form.setFieldError(e.field, e.code === 'USERNAME_TAKEN' ? t('errors.USERNAME_TAKEN') : e.message);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <LineEditSummary loginLabel={t('p2p.columns.email')} login={user.email} loginTestId="p2p-edit-email" expiryLabel={t('p2p.columns.expiry')} expDate={user.expiracao} />
        <TextInput label={t('p2p.form.name')} required maxLength={100} data-testid="p2p-edit-name" {...form.getInputProps('name')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('users.username')}
            description={t('p2p.form.usernameHint', { domain: user.email.split('@')[1] ?? '' })}
            maxLength={50}
            autoComplete="off"
            data-testid="p2p-edit-username"
            {...form.getInputProps('username')}
          />
          <CredentialInput label={t('users.password')} onGenerate={(password) => form.setFieldValue('password', password)} data-testid="p2p-edit-password" {...form.getInputProps('password')} />
        </SimpleGrid>
        <FormActions onCancel={onDone} submitting={form.submitting} submitTestId="p2p-edit-save" />
      </Stack>
    </form>
  );
}
