import { createRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rootRoute } from './base';

const RELOADED_KEY = 'panel.light-page-reload';

/**
 * The light pages (sign-in, /minha-conta, /teste/<slug>) are public.html, not this app: the server
 * and the service worker answer them so. This app meets them only when a service worker installed
 * before them answered with the panel: it is unregistered and the page loaded again from the
 * server, once (then a plain link, never a loop). The panel registers the new worker again.
 */
function LeaveForLightPage() {
  const { t } = useTranslation();
  const [stuck] = useState(() => sessionStorage.getItem(RELOADED_KEY) === window.location.pathname);
  useEffect(() => {
    if (stuck) return;
    sessionStorage.setItem(RELOADED_KEY, window.location.pathname);
    const registrations = 'serviceWorker' in navigator ? navigator.serviceWorker.getRegistrations() : Promise.resolve([]);
    void registrations
      .then((all) => Promise.all(all.map((r) => r.unregister())))
      .catch(() => undefined)
      .finally(() => window.location.reload());
  }, [stuck]);
  return (
    <div className="so-state">
      {stuck ? <a href={window.location.href}>{t('common.retry')}</a> : <span className="so-spinner" role="status" aria-label={t('common.loading')} />}
    </div>
  );
}

/** Routes for the light pages' paths (see LeaveForLightPage). */
export const lightPageRoutes = ['/auth/sign-in', '/minha-conta', '/teste/$slug'].map((path) =>
  createRoute({ getParentRoute: () => rootRoute, path, component: LeaveForLightPage }),
);
