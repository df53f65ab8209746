import { PasswordInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { errorText } from '../../lib/errors';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { type ApiError, isApiError } from '../../api/errors';
import i18n from '../../i18n';
import type { ResellerGroup } from '../../api/types';
import { PasswordStrengthMeter } from './password/PasswordStrengthMeter';
import { isStrongEnough, usePasswordStrength } from './password/usePasswordStrength';
import { groupName } from './groupName';
import { FormActions } from '../../components/FormActions';
import { NumberField } from '../../components/NumberField';
import './texts';

export interface ResellerFormValues {
  username: string;
  password: string;
  member_group_id: string | null;
  email: string;
  credits: string | number;
  whatsapp: string;
  telegram: string;
  notes: string;
}

export const EMPTY_RESELLER: ResellerFormValues = {
  username: '',
  password: '',
  member_group_id: null,
  email: '',
  credits: 0,
  whatsapp: '',
  telegram: '',
  notes: '',
};

const FIELDS = ['username', 'password', 'member_group_id', 'email', 'credits', 'whatsapp', 'telegram', 'notes'] as const;
type Field = (typeof FIELDS)[number];

/** Text shown on a field for a server error: a translated hint when we have one, else the server's message. */
function fieldErrorText(field: Field, err: ApiError): string {
  if (err.code !== 'VALIDATION') return errorText(err, 'resellers');
  const key = `resellers.form.invalid.${field}`;
  return i18n.exists(key) ? i18n.t(key) : err.message;
}

interface Props {
  mode: 'create' | 'edit';
  initial: ResellerFormValues;
  /** Groups offered by the create form (already narrowed to what the caller may create). */
  groups?: ResellerGroup[];
  onSubmit: (values: ResellerFormValues) => Promise<unknown>;
  onCancel: () => void;
}

/**
 * Reseller create/edit form. The password's strength shows as it is typed
 * and a weak one is not sent; everything else is checked by the server, whose field errors
 * (VALIDATION with `field`, WEAK_PASSWORD, USERNAME_TAKEN, INSUFFICIENT_CREDITS) land on the fields.
 */
export function ResellerForm({ mode, initial, groups, onSubmit, onCancel }: Props) {
  const { t, i18n: i18next } = useTranslation();
  const form = useForm<ResellerFormValues>({ initialValues: initial });
  const { username, email, whatsapp, telegram, password } = form.values;
  const accountData = [username, email, whatsapp, telegram];
  const strength = usePasswordStrength(password, accountData, i18next.language);

  const submit = form.onSubmit(async (values) => {
    if (values.password && !(await isStrongEnough(values.password, [values.username, values.email, values.whatsapp, values.telegram], i18next.language))) {
      form.setFieldError('password', t('errors.WEAK_PASSWORD'));
      return;
    }
    try {
      await onSubmit(values);
    } catch (e) {
      // the form marks the field the error names (the client has toasted it)
      if (!isApiError(e)) throw e;
      const field = (e.code === 'INSUFFICIENT_CREDITS' ? 'credits' : e.field?.split('.')[0]) as Field | undefined;
      if (field && (FIELDS as readonly string[]).includes(field) && (mode === 'create' || (field !== 'member_group_id' && field !== 'credits'))) {
        form.setFieldError(field, fieldErrorText(field, e));
      }
    }
  });

  const groupOptions = (groups ?? []).map((g) => ({ value: String(g.group_id), label: groupName(g.group_name, g.type) }));
  const testId = (f: string) => `reseller-form-${f}`;

  return (
    <form onSubmit={submit} noValidate data-testid="reseller-form">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('resellers.fields.username')}
            autoComplete="off"
            maxLength={50}
            description={t('resellers.form.usernameHint')}
            data-testid={testId('username')}
            {...form.getInputProps('username')}
          />
          <Stack gap={6}>
            <PasswordInput
              label={t('resellers.fields.password')}
              autoComplete="new-password"
              maxLength={128}
              description={mode === 'edit' ? t('resellers.form.passwordKeep') : t('resellers.form.passwordHint')}
              data-testid={testId('password')}
              {...form.getInputProps('password')}
            />
            <PasswordStrengthMeter strength={strength} testId={testId('password-strength')} />
          </Stack>
        </SimpleGrid>
        {mode === 'create' && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('resellers.fields.group')}
              data={groupOptions}
              allowDeselect={false}
              placeholder={t('resellers.form.groupPlaceholder')}
              data-testid={testId('group')}
              {...form.getInputProps('member_group_id')}
            />
            <NumberField
              label={t('resellers.fields.credits')}
              description={t('resellers.form.creditsHint')}
              allowDecimal={false}
              allowNegative={false}
              min={0}
              max={1_000_000}
              thousandSeparator="."
              decimalSeparator=","
              inputMode="numeric"
              data-testid={testId('credits')}
              {...form.getInputProps('credits')}
            />
          </SimpleGrid>
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label={t('resellers.fields.email')} type="email" maxLength={255} data-testid={testId('email')} {...form.getInputProps('email')} />
          <TextInput
            label={t('resellers.fields.whatsapp')}
            type="tel"
            inputMode="tel"
            maxLength={30}
            placeholder="+55 11 91234-5678"
            data-testid={testId('whatsapp')}
            {...form.getInputProps('whatsapp')}
          />
          <TextInput label={t('resellers.fields.telegram')} maxLength={100} data-testid={testId('telegram')} {...form.getInputProps('telegram')} />
        </SimpleGrid>
        <Textarea label={t('resellers.fields.notes')} autosize minRows={2} maxRows={6} maxLength={1000} data-testid={testId('notes')} {...form.getInputProps('notes')} />
        <FormActions
          onCancel={onCancel}
          submitting={form.submitting}
          submitLabel={mode === 'create' ? t('common.create') : t('common.save')}
          cancelTestId={testId('cancel')}
          submitTestId={testId('save')}
        />
      </Stack>
    </form>
  );
}
