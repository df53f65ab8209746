import { ModalsProvider } from '@mantine/modals';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, Outlet, redirect } from '@tanstack/react-router';
import { isSignedIn } from './api/session';
import { AppLayout } from './components/layout/AppLayout';
import { NotFoundPage, PageLoader, RouteError } from './components/RouteStates';
import { parseSearchString, stringifySearchObject } from './components/table/tableSearch';
import { ensureProfile } from './features/auth/profile';
import { packagesSearch } from './features/packages/search';

/**
 * Code-based routes of SPEC section 2. Pages are lazy (one chunk per page).
 * Protected pages hang under `authRoute`; admin-only pages under `adminRoute`.
 */
const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  // Modals live inside the router so their content may use Link and router hooks.
  component: () => (
    <ModalsProvider>
      <Outlet />
    </ModalsProvider>
  ),
  notFoundComponent: NotFoundPage,
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/sign-in',
  beforeLoad: () => {
    if (isSignedIn()) throw redirect({ to: '/' });
  },
  component: lazyRouteComponent(() => import('./features/auth/SignInPage'), 'SignInPage'),
});

/** Every route below requires the stored session; without it -> /auth/sign-in. */
const authRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'auth',
  beforeLoad: () => {
    if (!isSignedIn()) throw redirect({ to: '/auth/sign-in' });
  },
  component: AppLayout,
});

const homeRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./features/home/HomePage'), 'HomePage'),
});

/** Admin-only pages: other types are sent to the dashboard (the server refuses them too). */
const adminRoute = createRoute({
  getParentRoute: () => authRoute,
  id: 'admin',
  beforeLoad: async () => {
    const profile = await ensureProfile();
    if (profile.type !== 'admin') throw redirect({ to: '/' });
  },
});

const packagesRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/packages',
  validateSearch: packagesSearch,
  component: lazyRouteComponent(() => import('./features/packages/PackagesPage'), 'PackagesPage'),
});

const packageNewRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/packages/new',
  component: lazyRouteComponent(() => import('./features/packages/PackageCreatePage'), 'PackageCreatePage'),
});

export const packageEditRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/packages/$packageId/edit',
  component: lazyRouteComponent(() => import('./features/packages/PackageEditPage'), 'PackageEditPage'),
});

const bouquetsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/bouquets',
  component: lazyRouteComponent(() => import('./features/bouquets/BouquetsPage'), 'BouquetsPage'),
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  authRoute.addChildren([homeRoute, adminRoute.addChildren([packagesRoute, packageNewRoute, packageEditRoute, bouquetsRoute])]),
]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    parseSearch: parseSearchString,
    stringifySearch: stringifySearchObject,
    defaultPendingComponent: PageLoader,
    defaultErrorComponent: ({ reset }) => <RouteError reset={reset} />,
    defaultNotFoundComponent: NotFoundPage,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
