import { IconBrandWhatsapp } from '@tabler/icons-react';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { ErrorAlert } from '../components/basic/ErrorAlert';
import { PasswordField } from '../components/basic/PasswordField';
import { SubmitButton } from '../components/basic/SubmitButton';
import { TextField } from '../components/basic/TextField';
import { whatsappNumber, whatsappUrl } from '../lib/waLink';
import { isHttpError } from './api';
import { type CustomerCharge, type CustomerLine, createCharge, customerCharge, customerLine, customerSignIn, customerToken, forgetCustomer } from './customerApi';
import { CopyButton, formatDateTime, money, Notice, Spinner } from './parts';
import { errorText, t, useLang } from './texts';

type LineState = { status: 'loading' } | { status: 'error'; notFound: boolean } | { status: 'ok'; line: CustomerLine };

/** /minha-conta — a customer signs in with the line (or a reminder's link), sees it, and renews it by PIX. */
export function CustomerPage() {
  const lang = useLang();
  const [link] = useState(() => {
    const v = new URLSearchParams(window.location.search).get('t');
    return v && v.length <= 100 ? v : null;
  });
  const [token, setToken] = useState<string | null>(() => customerToken());
  const [opening, setOpening] = useState(link !== null);
  const [linkFailed, setLinkFailed] = useState(false);
  const [line, setLine] = useState<LineState>({ status: 'loading' });

  // the tab says which page this is
  // biome-ignore lint/correctness/useExhaustiveDependencies: again when the language changes
  useEffect(() => {
    document.title = t('customer.title');
  }, [lang]);

  // a reminder's link: opened once, then dropped from the address bar
  useEffect(() => {
    if (!link) return;
    window.history.replaceState(null, '', '/minha-conta');
    customerSignIn({ link })
      .then(setToken, () => setLinkFailed(true)) // an expired link says so in place
      .finally(() => setOpening(false));
  }, [link]);

  const signOut = useCallback(() => {
    forgetCustomer();
    setToken(null);
  }, []);

  const load = useCallback(
    (signal?: AbortSignal) => {
      if (!token) return;
      setLine({ status: 'loading' });
      customerLine(token, signal).then(
        (data) => setLine({ status: 'ok', line: data }),
        (e: unknown) => {
          if (signal?.aborted) return;
          if (isHttpError(e) && e.status === 401) signOut();
          else setLine({ status: 'error', notFound: isHttpError(e) && e.status === 404 });
        },
      );
    },
    [token, signOut],
  );
  useEffect(() => {
    const ctl = new AbortController();
    load(ctl.signal);
    return () => ctl.abort();
  }, [load]);

  return (
    <div className="pp-page">
      <main className="pp-main so-stack">
        <h1 className="so-title">{t('customer.title')}</h1>
        {!token &&
          (opening ? (
            <Spinner />
          ) : (
            <>
              {linkFailed && (
                <Notice kind="warn" testId="customer-link-expired">
                  {t('customer.linkExpired')}
                </Notice>
              )}
              <SignIn onDone={setToken} />
            </>
          ))}
        {token && line.status === 'loading' && <Spinner />}
        {token && line.status === 'error' && (
          <div className="so-alert pp-load-error" role="alert" data-testid="customer-line-error">
            <span>{line.notFound ? t('errors.NOT_FOUND') : t('common.loadError')}</span>
            {!line.notFound && (
              <button type="button" className="pp-button-light" onClick={() => load()}>
                {t('common.retry')}
              </button>
            )}
          </div>
        )}
        {token && line.status === 'ok' && <LineCard token={token} line={line.line} onSignOut={signOut} />}
      </main>
    </div>
  );
}

function SignIn({ onDone }: { onDone: (token: string) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!username.trim() || !password) {
      setError(t('customer.wrong'));
      return;
    }
    setBusy(true);
    try {
      onDone(await customerSignIn({ username: username.trim(), password }));
    } catch (err) {
      setError(isHttpError(err) && err.status === 429 ? t('customer.tooMany') : t('customer.wrong'));
      setBusy(false);
    }
  };
  return (
    <form className="so-card so-stack pp-card" onSubmit={(e) => void submit(e)} noValidate>
      <p className="so-dimmed">{t('customer.signInHelp')}</p>
      {error && <ErrorAlert testId="customer-error">{error}</ErrorAlert>}
      <TextField label={t('customer.username')} autoComplete="username" autoCapitalize="none" required value={username} onChange={(e) => setUsername(e.currentTarget.value)} data-testid="customer-username" />
      <PasswordField
        label={t('customer.password')}
        autoComplete="current-password"
        required
        toggleLabel={t('auth.toggleVisibility')}
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
        data-testid="customer-password"
      />
      <SubmitButton busy={busy} icon={null} data-testid="customer-sign-in">
        {t('customer.signIn')}
      </SubmitButton>
    </form>
  );
}

function LineCard({ token, line, onSignOut }: { token: string; line: CustomerLine; onSignOut: () => void }) {
  const expired = line.exp_date <= Date.now() / 1000;
  const [created, setCreated] = useState<CustomerCharge | null>(null);
  const [polled, setPolled] = useState<CustomerCharge | null>(null);
  const [pressed, setPressed] = useState<number | null>(null);
  const [createError, setCreateError] = useState<unknown>(null);
  const c = polled ?? created;

  // the charge, asked every 3 s until it is settled
  const chargeId = created?.id;
  useEffect(() => {
    if (chargeId === undefined) return;
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const ask = () =>
      customerCharge(token, chargeId, ctl.signal).then(
        (charge) => {
          setPolled(charge);
          if (charge.status === 'pending') timer = setTimeout(ask, 3000);
        },
        () => {
          if (!ctl.signal.aborted) timer = setTimeout(ask, 3000);
        },
      );
    timer = setTimeout(ask, 3000);
    return () => {
      ctl.abort();
      clearTimeout(timer);
    };
  }, [token, chargeId]);

  // the error is shown below the offers; pressing again retries the same charge (the same key)
  const renew = async (packageId: number) => {
    setPressed(packageId);
    setCreateError(null);
    try {
      setCreated(await createCharge(token, packageId));
    } catch (e) {
      setCreateError(e);
    } finally {
      setPressed(null);
    }
  };
  const contact = <ResellerContact whatsapp={line.reseller.whatsapp} username={line.username} />;
  const state = !line.enabled ? 'blocked' : expired ? 'expired' : 'active';

  return (
    <div className="so-stack">
      <section className="so-card pp-card" data-testid="customer-line">
        <div className="pp-row">
          <div>
            <p className="pp-strong" data-testid="customer-line-username">
              {line.username}
            </p>
            <p className="so-dimmed">{line.package_name ?? ''}</p>
          </div>
          <span className="pp-badge" data-state={state}>
            {t(`customer.${state}`)}
          </span>
        </div>
        <p data-testid="customer-expiry">{t(expired ? 'customer.expiredOn' : 'customer.expiresOn', { date: formatDateTime(line.exp_date) })}</p>
        <p className="pp-label">{t('customer.playlist')}</p>
        <div className="pp-row pp-row-center">
          <p className="pp-code" data-testid="customer-playlist">
            {line.playlist_url}
          </p>
          <CopyButton value={line.playlist_url} label={t('customer.copy')} />
        </div>
        <img className="pp-qr" src={line.playlist_qr} alt={t('customer.playlistQr')} width={160} height={160} />
      </section>

      {c && c.status !== 'pending' ? (
        <Settled status={c.status} expAfter={c.exp_after} />
      ) : c ? (
        <PixCharge charge={c} />
      ) : !line.enabled ? (
        <Notice kind="muted" testId="customer-blocked">
          <p>{t('customer.blockedHelp')}</p>
          {contact}
        </Notice>
      ) : line.payments_enabled ? (
        <section className="so-card pp-card so-stack">
          <h2 className="pp-h2">{t('customer.renew')}</h2>
          {line.offers.map((o) => (
            <div key={o.package_id} className="pp-offer">
              <button
                type="button"
                className="pp-offer-button"
                disabled={pressed !== null}
                data-loading={pressed === o.package_id || undefined}
                aria-busy={pressed === o.package_id || undefined}
                onClick={() => void renew(o.package_id)}
                data-testid={`customer-offer-${o.package_id}`}
              >
                <span>{pressed === o.package_id ? <span className="so-spinner" aria-hidden /> : o.package_name}</span>
                <span>{money(o.price_cents)}</span>
              </button>
              {/* paying for another package moves the line to it (its term, screens and channels) */}
              {line.package_id !== null && line.package_name && o.package_id !== line.package_id && (
                <p className="pp-changes" data-testid={`customer-offer-${o.package_id}-changes`}>
                  {t('customer.changesPlan', { from: line.package_name, to: o.package_name })}
                </p>
              )}
            </div>
          ))}
          {createError !== null && pressed === null && (
            <>
              <ErrorAlert testId="customer-charge-error">{errorText(createError, 'customer')}</ErrorAlert>
              {contact}
            </>
          )}
        </section>
      ) : (
        <Notice kind="info" testId="customer-no-pix">
          <p>{t('customer.talkToReseller')}</p>
          {contact}
        </Notice>
      )}
      <button type="button" className="pp-button-subtle" onClick={onSignOut} data-testid="customer-sign-out">
        {t('customer.signOut')}
      </button>
    </div>
  );
}

/** The reseller's WhatsApp, as a link with a message ready (nothing without a number: the text already says to talk to them). */
function ResellerContact({ whatsapp, username }: { whatsapp: string | null; username: string }) {
  const number = whatsappNumber(whatsapp);
  if (!number) return null;
  return (
    <a className="pp-whatsapp" href={whatsappUrl(number, t('customer.whatsappMessage', { username }))} target="_blank" rel="noopener noreferrer" data-testid="customer-whatsapp">
      <IconBrandWhatsapp size={18} aria-hidden />
      {t('customer.whatsapp')}
    </a>
  );
}

function PixCharge({ charge }: { charge: CustomerCharge }) {
  const secondsLeft = () => Math.max(0, charge.expires_at - Math.floor(Date.now() / 1000));
  const [left, setLeft] = useState(secondsLeft);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the countdown follows the charge's expiry
  useEffect(() => {
    const timer = setInterval(() => setLeft(secondsLeft()), 1000);
    return () => clearInterval(timer);
  }, [charge.expires_at]);
  const mm = String(Math.floor(left / 60)).padStart(2, '0');
  const ss = String(left % 60).padStart(2, '0');
  return (
    <section className="so-card pp-card so-stack pp-pix" data-testid="customer-pix">
      <p className="pp-strong">{t('customer.payWithPix', { amount: money(charge.amount_cents) })}</p>
      {charge.qr_code_base64 && <img className="pp-qr" src={`data:image/png;base64,${charge.qr_code_base64}`} alt={t('customer.pixQr')} width={220} height={220} />}
      <p className="pp-code" data-testid="customer-pix-code">
        {charge.qr_code}
      </p>
      {charge.qr_code && <CopyButton full value={charge.qr_code} label={t('customer.copyPix')} testId="customer-pix-copy" />}
      <p className={left < 120 ? 'pp-urgent' : 'so-dimmed'} data-testid="customer-countdown">
        {left > 0 ? t('customer.expiresIn', { time: `${mm}:${ss}` }) : t('customer.chargeExpired')}
      </p>
      <Spinner label={t('customer.waiting')} />
    </section>
  );
}

function Settled({ status, expAfter }: { status: string; expAfter: number | null }) {
  if (status === 'applied')
    return (
      <Notice kind="ok" title={t('customer.paid')} testId="customer-renewed">
        <p>{t('customer.renewedUntil', { date: formatDateTime(expAfter ?? 0) })}</p>
      </Notice>
    );
  if (status === 'paid_awaiting_credits')
    return (
      <Notice kind="info" title={t('customer.paid')} testId="customer-processing">
        <p>{t('customer.processing')}</p>
      </Notice>
    );
  return (
    <Notice kind="warn" testId="customer-charge-failed">
      <p>{status === 'expired' ? t('customer.chargeExpired') : status === 'failed' ? t('customer.failed') : t('customer.rejected')}</p>
    </Notice>
  );
}
