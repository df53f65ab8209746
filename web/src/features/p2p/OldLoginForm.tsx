import { Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLogin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** docs/rules.md: the old login must be longer than 3 characters; the message is fixed Portuguese. */
export const OLD_USERNAME_MIN = 4;

interface Props {
  submitLabel: string;
  /** Resolves true once the login went through (the form empties); false, or a failed call, keeps the form filled. */
  onSubmit: (username: string, password: string) => Promise<boolean>;
  testId: string;
}

/** The old P2P panel's username and password (credits migration and client import). */
export function OldLoginForm({ submitLabel, onSubmit, testId }: Props) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { username: '', password: '' },
    validate: {
      username: (v) => (v.trim().length < OLD_USERNAME_MIN ? t('p2p.old.badFormat') : null),
      password: (v) => (v ? null : t('p2p.old.badFormat')),
    },
  });
  // the caller shows a refusal (the client, a failed call): the form keeps what was typed
  const submit = form.onSubmit(async (v) => {
    if (await onSubmit(v.username.trim(), v.password)) form.reset();
  });
  return (
    <form onSubmit={submit} noValidate data-testid={testId}>
      <Stack gap="sm" maw={420}>
        <TextInput label={t('p2p.old.username')} autoComplete="off" maxLength={100} data-testid={`${testId}-username`} {...form.getInputProps('username')} />
        <PasswordInput label={t('p2p.old.password')} autoComplete="off" maxLength={100} data-testid={`${testId}-password`} {...form.getInputProps('password')} />
        <Group justify="flex-end">
          <Button type="submit" loading={form.submitting} leftSection={<IconLogin size={18} />} data-testid={`${testId}-submit`}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
