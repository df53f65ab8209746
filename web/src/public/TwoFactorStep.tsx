import { IconShieldLock } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { ErrorAlert } from '../components/basic/ErrorAlert';
import { SubmitButton } from '../components/basic/SubmitButton';
import { TextField } from '../components/basic/TextField';
import { isHttpError } from './api';
import { completeSignIn, type Entered } from './session';
import { errorText, t } from './texts';

interface Props {
  username: string;
  challenge: string;
  onSignedIn: (profile: Entered) => void;
  /** The challenge is gone (expired, used up): back to the password. */
  onRestart: (message: string) => void;
}

/** Second sign-in step: the 6-digit code of the authenticator app, or a recovery code. */
export function TwoFactorStep({ username, challenge, onSignedIn, onRestart }: Props) {
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
    if (busy) return;
    setError(null);
    setBusy(true);
    try {
      onSignedIn(await completeSignIn({ username, challenge, code: code.trim() })); // busy until the panel loads
    } catch (err) {
      setBusy(false);
      if (isHttpError(err) && err.code === 'TWO_FACTOR_CHALLENGE_EXPIRED') onRestart(errorText(err));
      else setError(errorText(err));
      setCode('');
    }
  };

  const toggle = () => {
    setRecovery((r) => !r);
    setCode('');
    setError(null);
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="so-stack">
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
      <SubmitButton busy={busy} icon={<IconShieldLock size={18} aria-hidden />} data-testid="signin-2fa-submit">
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
