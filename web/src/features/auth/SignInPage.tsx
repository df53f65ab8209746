import { Alert, Box, Button, Center, Group, Paper, PasswordInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconLogin2 } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { errorText } from '../../api/notify';
import { LanguageSwitch } from '../../components/layout/LanguageSwitch';
import type { Profile } from './profile';
import { signIn } from './session';
import { TwoFactorStep } from './TwoFactorStep';

export function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<{ username: string; challenge: string } | null>(null);
  const form = useForm({
    initialValues: { username: '', password: '', remember_me: false },
    validate: {
      username: (v) => (v.trim() ? null : t('common.required')),
      password: (v) => (v ? null : t('common.required')),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setError(null);
    try {
      const username = values.username.trim();
      const res = await signIn({ ...values, username });
      if ('challenge' in res) setPending({ username, challenge: res.challenge });
      else await enter(res);
    } catch (e) {
      setError(isApiError(e) ? errorText(e) : t('errors.UNKNOWN'));
      form.setFieldValue('password', '');
    } finally {
      setBusy(false);
    }
  });

  const enter = (profile: Profile) => navigate({ to: profile.two_factor_required ? '/profile/security' : '/' });
  const restart = (message: string) => {
    setPending(null);
    setError(message || null);
    form.setFieldValue('password', '');
  };

  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-light)" p="md">
      <Group component="header" justify="flex-end">
        <LanguageSwitch />
      </Group>
      <Center component="main" mih="calc(100dvh - 80px)">
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={400}>
          {pending ? (
            <TwoFactorStep username={pending.username} challenge={pending.challenge} onSignedIn={(p) => void enter(p)} onRestart={restart} />
          ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              <div>
                <Title order={1} size="h3">
                  {t('auth.title')}
                </Title>
                <Text c="dimmed" size="sm">
                  {t('auth.subtitle')}
                </Text>
              </div>
              {error && (
                <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="signin-error">
                  {error}
                </Alert>
              )}
              <TextInput
                label={t('auth.username')}
                autoComplete="username"
                autoCapitalize="none"
                autoFocus
                data-testid="signin-username"
                {...form.getInputProps('username')}
              />
              <PasswordInput
                label={t('auth.password')}
                autoComplete="current-password"
                visibilityToggleButtonProps={{ 'aria-label': t('auth.toggleVisibility') }}
                data-testid="signin-password"
                {...form.getInputProps('password')}
              />
              <Switch
                label={t('auth.rememberMe')}
                data-testid="signin-remember"
                {...form.getInputProps('remember_me', { type: 'checkbox' })}
              />
              <Button type="submit" loading={busy} leftSection={<IconLogin2 size={18} />} data-testid="signin-submit" fullWidth>
                {t('auth.submit')}
              </Button>
            </Stack>
          </form>
          )}
        </Paper>
      </Center>
    </Box>
  );
}
