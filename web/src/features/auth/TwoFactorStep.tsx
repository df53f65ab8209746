import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconShieldLock } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { errorText } from '../../api/notify';
import type { Profile } from './profile';
import { completeSignIn } from './session';

interface Props {
  username: string;
  challenge: string;
  onSignedIn: (profile: Profile) => void;
  /** The challenge is gone (expired, used up): back to the password. */
  onRestart: (message: string) => void;
}

/** Second sign-in step: the 6-digit code of the authenticator app, or a recovery code. */
export function TwoFactorStep({ username, challenge, onSignedIn, onRestart }: Props) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) {
      setError(t('common.required'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await completeSignIn(username, challenge, code.trim()));
    } catch (err) {
      if (isApiError(err) && err.code === 'TWO_FACTOR_CHALLENGE_EXPIRED') onRestart(errorText(err));
      else setError(isApiError(err) ? errorText(err) : t('errors.UNKNOWN'));
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  const toggle = () => {
    setRecovery((r) => !r);
    setCode('');
    setError(null);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} size="h3">
            {t('twoFactor.signIn.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {recovery ? t('twoFactor.signIn.recoveryHint') : t('twoFactor.signIn.codeHint')}
          </Text>
        </div>
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="signin-error">
            {error}
          </Alert>
        )}
        {recovery ? (
          <TextInput
            key="recovery"
            label={t('twoFactor.signIn.recoveryLabel')}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            maxLength={40}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            data-testid="signin-2fa-code"
          />
        ) : (
          <TextInput
            key="totp"
            label={t('twoFactor.signIn.codeLabel')}
            autoComplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9]*"
            autoFocus
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
            data-testid="signin-2fa-code"
          />
        )}
        <Button type="submit" loading={busy} leftSection={<IconShieldLock size={18} />} data-testid="signin-2fa-submit" fullWidth>
          {t('twoFactor.signIn.submit')}
        </Button>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={toggle} data-testid="signin-2fa-toggle">
            {recovery ? t('twoFactor.signIn.useApp') : t('twoFactor.signIn.useRecovery')}
          </Anchor>
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={() => onRestart('')} data-testid="signin-2fa-back">
            {t('twoFactor.signIn.back')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
