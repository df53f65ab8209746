import { IconAlertTriangle } from '@tabler/icons-react';
import { Link, useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

// Plain elements (styles/signed-out.css): these show before the signed-in layout, and Mantine, have loaded.

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className="so-state" data-testid="page-loader" role="status" aria-label={t('common.loading')}>
      <span className="so-spinner" aria-hidden />
    </div>
  );
}

/** `standalone`: shown outside the signed-in layout, so it is the page's main landmark itself. */
export function NotFoundPage({ standalone = false }: { standalone?: boolean }) {
  const { t } = useTranslation();
  const Root = standalone ? 'main' : 'div';
  return (
    <Root className="so-state" data-testid="not-found">
      <h1 className="so-title">404</h1>
      <p className="so-dimmed">{t('errors.pageNotFound')}</p>
      <Link to="/" className="so-button">
        {t('nav.dashboard')}
      </Link>
    </Root>
  );
}

/** Route-level error (e.g. a guard could not load the profile); retry re-runs the route. */
export function RouteError({ reset }: { reset?: () => void }) {
  const { t } = useTranslation();
  const router = useRouter();
  return (
    <div className="so-state" data-kind="error" role="alert">
      <strong>
        <IconAlertTriangle size={18} aria-hidden /> {t('common.loadError')}
      </strong>
      <button
        type="button"
        className="so-button"
        onClick={() => {
          reset?.();
          void router.invalidate();
        }}
      >
        {t('common.retry')}
      </button>
    </div>
  );
}
