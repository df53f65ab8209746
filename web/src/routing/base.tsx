import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { ensureProfile } from '../api/profile';
import { isSignedIn } from '../api/session';
import { NotFoundPage } from '../components/RouteStates';
import { goToSignIn } from '../lib/signInUrl';
import { roleRedirect } from './roleRedirect';

/**
 * The layout routes every feature hangs its pages under. Each feature declares its own routes
 * (`features/<x>/routes.tsx`, pages lazy: one chunk per page); `router.tsx` assembles them.
 * Protected pages hang under `authRoute`; admin-only pages under `adminRoute`; reseller
 * management and content requests under `managerRoute`.
 */
export const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  notFoundComponent: () => <NotFoundPage standalone />,
});

/**
 * Every route below requires the stored session; without it, the sign-in page (a full load of the
 * light page, back here once signed in). The route stays pending while the browser leaves.
 */
export const authRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'auth',
  beforeLoad: ({ location }) => {
    if (isSignedIn()) return;
    goToSignIn(location.href);
    return new Promise<never>(() => undefined);
  },
  // The layout renders once every page's texts are in (the entry holds only the signed-out ones).
  component: lazyRouteComponent(
    () => Promise.all([import('./SignedInApp'), import('../i18n/signedInTexts')]).then(([app]) => app),
    'SignedInApp',
  ),
});

/** Admin-only pages: other types are sent to the dashboard (the server refuses them too). */
export const adminRoute = createRoute({
  getParentRoute: () => authRoute,
  id: 'admin',
  beforeLoad: async () => {
    const profile = await ensureProfile();
    if (profile.type !== 'admin') throw roleRedirect();
  },
});

/** Masters and admins: reseller management (plain resellers have no sub-resellers) and content requests (only they ask). */
export const managerRoute = createRoute({
  getParentRoute: () => authRoute,
  id: 'manager',
  beforeLoad: async () => {
    const profile = await ensureProfile();
    if (profile.type === 'reseller') throw roleRedirect();
  },
});
