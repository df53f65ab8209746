import { useParams } from '@tanstack/react-router';
import { notifySuccess } from '../../api/notify';
import { MultiSelect, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { FormPageShell } from '../../components/FormPageShell';
import { WhenLoaded } from '../../components/WhenLoaded';
import { FormActions } from '../../components/FormActions';
import { useGoBack } from '../../components/useGoBack';
import { useComplements } from '../../api/complements';
import { useLine, useUpdateLine } from './api';
import { CredentialInput } from './CredentialInput';
import { CREDENTIAL_RE, WHATSAPP_RE } from './format';
import { ReminderFields } from './ReminderFields';
import { LineEditSummary } from './LineEditSummary';
import type { Line } from '../../api/types';
import { isValidId } from '../../lib/ids';

/** /users/{id}/edit — password, whatsapp, notes and bouquets (at least one). */
export function UserEditPage() {
  const { t } = useTranslation();
  const { userId } = useParams({ from: '/auth/users/$userId/edit' });
  const id = Number(userId);
  const valid = isValidId(id);
  const line = useLine(valid ? id : 0);
  const goBack = useGoBack('/users');

  return (
    <FormPageShell title={line.data ? t('users.editTitle', { username: line.data.username }) : t('users.editTitleId', { id: valid ? id : '?' })} onBack={goBack} backTestId="user-back">
      <WhenLoaded errorTestId="user-edit-error" valid={valid} query={line}>
      {(data) => <EditForm key={data.id} line={data} onDone={goBack} />}
      </WhenLoaded>
    </FormPageShell>
  );
}

interface EditValues {
  password: string;
  whatsapp: string;
  email: string;
  opt_out_reminders: boolean;
  reseller_notes: string;
  bouquet: string[];
}

function EditForm({ line, onDone }: { line: Line; onDone: () => void }) {
  const { t } = useTranslation();
  const complements = useComplements();
  const form = useForm<EditValues>({
    initialValues: { password: line.password, whatsapp: line.whatsapp ?? '', email: line.email ?? '', opt_out_reminders: line.opt_out_reminders === 1, reseller_notes: line.reseller_notes ?? '', bouquet: line.bouquet },
    validate: {
      password: (v) => (v.length > 50 || !CREDENTIAL_RE.test(v.trim()) ? t('users.form.credentialInvalid') : null),
      whatsapp: (v) => (v.length > 20 || !WHATSAPP_RE.test(v) ? t('users.form.whatsappInvalid') : null),
      reseller_notes: (v) => (v.length > 500 ? t('users.form.notesTooLong') : null),
      bouquet: (v) => (v.length > 0 ? null : t('users.form.bouquetRequired')),
    },
  });
  const update = useUpdateLine();
  const bouquets = (complements.data?.bouquets ?? []).map((b) => ({ value: String(b.id), label: `${b.id} - ${b.bouquet_name}` }));
  // Bouquets of the line that no longer exist still show (by id) so they can be removed.
  for (const id of line.bouquet) if (!bouquets.some((b) => b.value === id)) bouquets.push({ value: id, label: id });

  const submit = form.onSubmit(async (v) => {
    try {
      await update.mutateAsync({
        id: line.id,
        password: v.password.trim() || undefined,
        whatsapp: v.whatsapp.trim(),
        email: v.email.trim(),
        opt_out_reminders: v.opt_out_reminders,
        reseller_notes: v.reseller_notes.trim(),
        bouquet: v.bouquet,
      });
      notifySuccess(t('users.edit.success'));
      onDone();
    } catch (e) {
      // the form marks the field the error names (the client has toasted it)
      if (isApiError(e) && (e.code === 'BOUQUET_REQUIRED' || e.field === 'bouquet')) form.setFieldError('bouquet', t('users.form.bouquetRequired'));
      else if (isApiError(e) && e.field && e.field in v) form.setFieldError(e.field, e.message);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <LineEditSummary loginLabel={t('users.username')} login={line.username} loginTestId="edit-username" expiryLabel={t('users.expiresAt')} expDate={line.exp_date} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <CredentialInput
            label={t('users.password')}
            onGenerate={(password) => form.setFieldValue('password', password)}
            generateTestId="edit-generate-password"
            data-testid="edit-password"
            {...form.getInputProps('password')}
          />
          <TextInput label={t('users.whatsappLabel')} description={t('users.form.whatsappHint')} inputMode="tel" maxLength={20} data-testid="edit-whatsapp" {...form.getInputProps('whatsapp')} />
        </SimpleGrid>
        <ReminderFields form={form} />
        <Textarea label={t('users.notes')} autosize minRows={2} maxRows={6} maxLength={500} data-testid="edit-notes" {...form.getInputProps('reseller_notes')} />
        <MultiSelect
          label={t('users.bouquets')}
          placeholder={t('users.bouquetsPlaceholder')}
          required
          searchable
          clearable
          hidePickedOptions
          data={bouquets}
          disabled={complements.isLoading}
          nothingFoundMessage={t('common.noRecords')}
          data-testid="edit-bouquets"
          {...form.getInputProps('bouquet')}
        />
        <FormActions onCancel={onDone} submitting={form.submitting} cancelTestId="edit-cancel" submitTestId="edit-save" />
      </Stack>
    </form>
  );
}
