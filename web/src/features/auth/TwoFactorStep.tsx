import { IconShieldLock } from '@tabler/icons-react';
import { errorText } from '../../lib/errors';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { ErrorAlert } from '../../components/basic/ErrorAlert';
import { SubmitButton } from '../../components/basic/SubmitButton';
import { TextField } from '../../components/basic/TextField';
import { type SignedInProfile, useCompleteSignIn } from './session';

interface Props {
  username: string;
  challenge: string;
  onSignedIn: (profile: SignedInProfile) => void;
  /** The challenge is gone (expired, used up): back to the password. */
  onRestart: (message: string) => void;
}

/** Second sign-in step: the 6-digit code of the authenticator app, or a recovery code. */
export function TwoFactorStep({ username, challenge, onSignedIn, onRestart }: Props) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const complete = useCompleteSignIn({
    onSuccess: onSignedIn,
    onError: (err) => {
      if (isApiError(err) && err.code === 'TWO_FACTOR_CHALLENGE_EXPIRED') onRestart(errorText(err));
      else setError(errorText(err));
      setCode('');
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) {
      setError(t('common.required'));
      return;
    }
    setError(null);
    void complete.mutateAsync({ username, challenge, code: code.trim() }); // answered by the hook's callbacks
  };

  const toggle = () => {
    setRecovery((r) => !r);
    setCode('');
    setError(null);
  };

  return (
    <form onSubmit={submit} noValidate className="so-stack">
      <div>
        <h1 className="so-title">{t('twoFactor.signIn.title')}</h1>
        <p className="so-dimmed">{recovery ? t('twoFactor.signIn.recoveryHint') : t('twoFactor.signIn.codeHint')}</p>
      </div>
      {error && <ErrorAlert testId="signin-error">{error}</ErrorAlert>}
      {recovery ? (
        <TextField
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
        <TextField
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
      <SubmitButton busy={complete.isPending} icon={<IconShieldLock size={18} aria-hidden />} data-testid="signin-2fa-submit">
        {t('twoFactor.signIn.submit')}
      </SubmitButton>
      <div className="so-row">
        <button type="button" className="so-link" onClick={toggle} data-testid="signin-2fa-toggle">
          {recovery ? t('twoFactor.signIn.useApp') : t('twoFactor.signIn.useRecovery')}
        </button>
        <button type="button" className="so-link" data-dimmed onClick={() => onRestart('')} data-testid="signin-2fa-back">
          {t('twoFactor.signIn.back')}
        </button>
      </div>
    </form>
  );
}
