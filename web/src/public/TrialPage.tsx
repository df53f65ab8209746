import { IconBrandWhatsapp, IconGift } from '@tabler/icons-react';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { ErrorAlert } from '../components/basic/ErrorAlert';
import { SubmitButton } from '../components/basic/SubmitButton';
import { TextField } from '../components/basic/TextField';
import { whatsappNumber } from '../lib/waLink';
import { type HttpError, isHttpError } from './api';
import { Notice, Spinner } from './parts';
import { errorText, hasText, t, useLang } from './texts';
import { requestTrial, type TrialPageInfo, trialPage } from './trialApi';

type PageState = { status: 'loading' } | { status: 'error'; code: string } | { status: 'ok'; page: TrialPageInfo };

/** The slug of /teste/<slug>; a malformed escape ("%E0%A4%A") is kept as typed, so the page says no such page instead of failing. */
export function slugOf(pathname: string): string {
  const raw = pathname.replace(/^\/teste\//, '').replace(/\/$/, '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The package's duration in words: "24 horas", "1 mês" (the unit as the API says it: hours, days, months). */
export function durationText(duration: number, unit: string): string {
  const key = `trialOffer.durations.${unit}`;
  return hasText(`${key}_other`) ? t(key, { count: duration }) : `${duration} ${unit}`;
}

/** What to wait before asking again, from `Retry-After` (seconds): minutes, or hours past 90 minutes. */
export function waitText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes > 90 ? t('trialOffer.hours', { count: Math.ceil(minutes / 60) }) : t('trialOffer.minutes', { count: minutes });
}

/** A failed request for a trial, in the customer's words. */
export function trialErrorText(e: unknown): string {
  if (!isHttpError(e)) return t('trialOffer.errors.UNKNOWN');
  if (e.code === 'TRIAL_LIMIT') return e.retryAfter ? t('trialOffer.errors.TRIAL_LIMIT_WAIT', { time: waitText(e.retryAfter) }) : t('trialOffer.errors.TRIAL_LIMIT');
  return hasText(`trialOffer.errors.${e.code}`) ? t(`trialOffer.errors.${e.code}`) : errorText(e);
}

/** /teste/<slug> — a reseller's page: the customer types their WhatsApp and gets a free trial there. */
export function TrialPage() {
  const lang = useLang();
  const [slug] = useState(() => slugOf(window.location.pathname));
  const [state, setState] = useState<PageState>({ status: 'loading' });
  const load = useCallback(
    (signal?: AbortSignal) => {
      setState({ status: 'loading' });
      trialPage(slug, signal).then(
        (page) => setState({ status: 'ok', page }),
        (e: unknown) => {
          if (!signal?.aborted) setState({ status: 'error', code: isHttpError(e) ? e.code : 'UNKNOWN' });
        },
      );
    },
    [slug],
  );
  useEffect(() => {
    const ctl = new AbortController();
    load(ctl.signal);
    return () => ctl.abort();
  }, [load]);

  const name = state.status === 'ok' ? state.page.reseller_name : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: again when the language changes
  useEffect(() => {
    document.title = name ? `${name} · ${t('trialOffer.title')}` : t('trialOffer.title');
  }, [name, lang]);

  return (
    <div className="pp-page">
      <main className="pp-main so-stack">
        {state.status === 'loading' && <Spinner label={t('common.loading')} />}
        {state.status === 'error' && (
          <>
            <h1 className="so-title">{t('trialOffer.title')}</h1>
            {state.code === 'NOT_FOUND' ? (
              <Notice kind="warn" testId="trial-not-found">
                <p>{t('trialOffer.notFound')}</p>
              </Notice>
            ) : state.code === 'NOT_CONFIGURED' ? (
              <Notice kind="muted" testId="trial-off">
                <p>{t('trialOffer.off')}</p>
              </Notice>
            ) : (
              <div className="so-alert pp-load-error" role="alert" data-testid="trial-load-error">
                <span>{t('trialOffer.loadError')}</span>
                <button type="button" className="pp-button-light" onClick={() => load()} data-testid="trial-retry">
                  {t('common.retry')}
                </button>
              </div>
            )}
          </>
        )}
        {state.status === 'ok' && <Trial page={state.page} />}
      </main>
    </div>
  );
}

/** The page of a trial page that loaded (exported for its unit test). */
export function Trial({ page }: { page: TrialPageInfo }) {
  const [phone, setPhone] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const reseller = whatsappNumber(page.whatsapp);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const digits = phone.replace(/\D/g, '');
    if (digits.length < 10 || digits.length > 13) {
      setInvalid(t(digits ? 'trialOffer.errors.VALIDATION' : 'common.required'));
      return;
    }
    setInvalid(null);
    setError(null);
    setBusy(true);
    try {
      await requestTrial(page.slug, digits);
      setSent(true);
    } catch (err) {
      if (isHttpError(err) && (err as HttpError).code === 'VALIDATION') setInvalid(t('trialOffer.errors.VALIDATION'));
      else setError(trialErrorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <header className="so-stack pp-trial-head">
        <h1 className="so-title" data-testid="trial-reseller">
          {page.reseller_name}
        </h1>
        {page.message && (
          <p className="pp-message" data-testid="trial-message">
            {page.message}
          </p>
        )}
      </header>
      <section className="so-card pp-card so-stack">
        <dl className="pp-facts">
          <div>
            <dt>{t('trialOffer.package')}</dt>
            <dd data-testid="trial-package">{page.package_name}</dd>
          </div>
          <div>
            <dt>{t('trialOffer.duration')}</dt>
            <dd data-testid="trial-duration">{durationText(page.duration, page.duration_in)}</dd>
          </div>
        </dl>
        {sent ? (
          <Notice kind="ok" testId="trial-sent">
            <p>{t('trialOffer.sent')}</p>
          </Notice>
        ) : (
          <form className="so-stack" onSubmit={(e) => void submit(e)} noValidate>
            {error && <ErrorAlert testId="trial-error">{error}</ErrorAlert>}
            <div className="so-stack pp-tight">
              <TextField
                label={t('trialOffer.whatsapp')}
                type="tel"
                inputMode="numeric"
                autoComplete="tel-national"
                placeholder="(11) 99999-0000"
                maxLength={20}
                value={phone}
                onChange={(e) => setPhone(e.currentTarget.value)}
                error={invalid}
                {...(invalid ? {} : { 'aria-describedby': 'trial-hint' })}
                data-testid="trial-whatsapp"
              />
              {!invalid && (
                <p className="pp-hint" id="trial-hint">
                  {t('trialOffer.whatsappHint')}
                </p>
              )}
            </div>
            <SubmitButton busy={busy} icon={<IconGift size={18} aria-hidden />} data-testid="trial-submit">
              {t('trialOffer.submit')}
            </SubmitButton>
          </form>
        )}
        {reseller && (sent || error) && (
          <a className="pp-whatsapp" href={`https://wa.me/${reseller}`} target="_blank" rel="noopener noreferrer" data-testid="trial-talk">
            <IconBrandWhatsapp size={18} aria-hidden />
            {t('trialOffer.talk', { name: page.reseller_name })}
          </a>
        )}
      </section>
    </>
  );
}
