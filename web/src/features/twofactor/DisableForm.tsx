import { Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { errorText } from '../../lib/errors';
import { notifySuccess } from '../../api/notify';
import { IconShieldOff } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDisableTwoFactor } from './api';
import { ErrorAlert } from '../../components/basic/ErrorAlert';

/** Turning 2FA off takes the password and a current code (or a recovery code). */
export function DisableForm() {
  const { t } = useTranslation();
  const disable = useDisableTwoFactor();
  const required = (v: string) => (v ? null : t('common.required'));
  const form = useForm({ initialValues: { password: '', code: '' }, validate: { password: required, code: (v) => required(v.trim()) } });
  const [error, setError] = useState<string | null>(null);

  const submit = form.onSubmit(async ({ password, code }) => {
    setError(null);
    try {
      await disable.mutateAsync({ password, code: code.trim() });
      notifySuccess(t('twoFactor.disable.done'));
    } catch (err) {
      // the call is silent: its error shows in place (and the code is typed again)
      setError(errorText(err));
      form.setFieldValue('code', '');
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {error && (
          <ErrorAlert testId="twofactor-disable-error">{error}</ErrorAlert>
        )}
        <Group align="flex-end" gap="sm">
          <PasswordInput
            label={t('auth.password')}
            autoComplete="current-password"
            w={220}
            {...form.getInputProps('password')}
            data-testid="twofactor-disable-password"
          />
          <TextInput
            label={t('twoFactor.disable.codeLabel')}
            autoComplete="one-time-code"
            maxLength={40}
            w={200}
            {...form.getInputProps('code')}
            data-testid="twofactor-disable-code"
          />
          <Button type="submit" color="red" variant="light" leftSection={<IconShieldOff size={18} />} loading={disable.isPending} data-testid="twofactor-disable">
            {t('twoFactor.disable.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
