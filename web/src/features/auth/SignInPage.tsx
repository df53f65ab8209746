import { IconLogin2 } from '@tabler/icons-react';
import { errorText } from '../../lib/errors';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/basic/ErrorAlert';
import { PasswordField } from '../../components/basic/PasswordField';
import { SubmitButton } from '../../components/basic/SubmitButton';
import { TextField } from '../../components/basic/TextField';
import { LanguageSwitch } from '../../components/layout/LanguageSwitch';
import { type SignedInProfile, useSignIn } from './session';
import { TwoFactorStep } from './TwoFactorStep';

type Field = 'username' | 'password';

/**
 * The first page most users load, so it is built without Mantine (plain elements styled by
 * styles/signed-out.css): its first load stays within the 150 KB budget (scripts/bundle-budget.mjs).
 */
export function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [invalid, setInvalid] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<{ username: string; challenge: string } | null>(null);
  const enter = (profile: SignedInProfile) => navigate({ to: profile.two_factor_required ? '/profile/security' : '/' });
  const signIn = useSignIn({
    onSuccess: (res, { username }) => ('challenge' in res ? setPending({ username, challenge: res.challenge }) : enter(res)),
    onError: (err) => {
      setError(errorText(err));
      setPassword('');
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const name = username.trim();
    const missing = { ...(name ? {} : { username: t('common.required') }), ...(password ? {} : { password: t('common.required') }) };
    setInvalid(missing);
    if (Object.keys(missing).length) return;
    setError(null);
    void signIn.mutateAsync({ username: name, password, remember_me: rememberMe }); // answered by the hook's callbacks
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
            <TwoFactorStep username={pending.username} challenge={pending.challenge} onSignedIn={(p) => void enter(p)} onRestart={restart} />
          ) : (
            <form onSubmit={submit} noValidate className="so-stack">
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
              <SubmitButton busy={signIn.isPending} icon={<IconLogin2 size={18} aria-hidden />} data-testid="signin-submit">
                {t('auth.submit')}
              </SubmitButton>
            </form>
          )}
        </div>
      </main>
    </div>
  );
}
