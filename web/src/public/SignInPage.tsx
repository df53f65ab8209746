import { IconLogin2 } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import { ErrorAlert } from '../components/basic/ErrorAlert';
import { PasswordField } from '../components/basic/PasswordField';
import { SubmitButton } from '../components/basic/SubmitButton';
import { TextField } from '../components/basic/TextField';
import { safeNext } from '../lib/signInUrl';
import { LanguageSwitch } from './LanguageSwitch';
import { type Entered, getToken, signIn } from './session';
import { errorText, t } from './texts';
import { TwoFactorStep } from './TwoFactorStep';

type Field = 'username' | 'password';

/** The panel, with a full page load: `?next=` (where the panel sent the user from), else the dashboard. */
function enter(profile: Entered) {
  window.location.assign(profile.two_factor_required ? '/profile/security' : safeNext(new URLSearchParams(window.location.search).get('next')));
}

/** /auth/sign-in — the reseller's sign-in, then the second step when the account has 2FA. */
export function SignInPage() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [invalid, setInvalid] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<{ username: string; challenge: string } | null>(null);

  // a stored session: straight to the panel
  useEffect(() => {
    if (getToken()) window.location.replace(safeNext(new URLSearchParams(window.location.search).get('next')));
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const name = username.trim();
    const missing = { ...(name ? {} : { username: t('common.required') }), ...(password ? {} : { password: t('common.required') }) };
    setInvalid(missing);
    if (Object.keys(missing).length || busy) return;
    setError(null);
    setBusy(true);
    try {
      const res = await signIn({ username: name, password, remember_me: rememberMe });
      if ('challenge' in res && typeof res.challenge === 'string') {
        setPending({ username: name, challenge: res.challenge });
        setBusy(false);
      } else enter(res); // busy until the panel loads
    } catch (err) {
      setError(errorText(err));
      setPassword('');
      setBusy(false);
    }
  };

  const restart = (message: string) => {
    setPending(null);
    setError(message || null);
    setPassword('');
  };

  return (
    <div className="so-page">
      <header className="so-header">
        <LanguageSwitch />
      </header>
      <main className="so-main">
        <div className="so-card">
          {pending ? (
            <TwoFactorStep username={pending.username} challenge={pending.challenge} onSignedIn={enter} onRestart={restart} />
          ) : (
            <form onSubmit={(e) => void submit(e)} noValidate className="so-stack">
              <div>
                <h1 className="so-title">{t('auth.title')}</h1>
                <p className="so-dimmed">{t('auth.subtitle')}</p>
              </div>
              {error && <ErrorAlert testId="signin-error">{error}</ErrorAlert>}
              <TextField
                label={t('auth.username')}
                autoComplete="username"
                autoCapitalize="none"
                autoFocus
                value={username}
                onChange={(e) => setUsername(e.currentTarget.value)}
                error={invalid.username}
                data-testid="signin-username"
              />
              <PasswordField
                label={t('auth.password')}
                autoComplete="current-password"
                toggleLabel={t('auth.toggleVisibility')}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={invalid.password}
                data-testid="signin-password"
              />
              <label className="so-switch">
                <input type="checkbox" role="switch" aria-checked={rememberMe} checked={rememberMe} onChange={(e) => setRememberMe(e.currentTarget.checked)} data-testid="signin-remember" />
                {t('auth.rememberMe')}
              </label>
              <SubmitButton busy={busy} icon={<IconLogin2 size={18} aria-hidden />} data-testid="signin-submit">
                {t('auth.submit')}
              </SubmitButton>
            </form>
          )}
        </div>
      </main>
    </div>
  );
}
