import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { isSignedIn } from './api/session';
import { NotFoundPage, PageLoader, RouteError } from './components/RouteStates';
import { parseSearchString, stringifySearchObject } from './components/table/tableSearch';
import { ensureProfile } from './features/auth/profile';
import { prefetchDashboard } from './features/dashboard/prefetch';
import { roleRedirect } from './features/auth/roleRedirect';
import { catalogueSearch } from './features/catalogue/search';
import { connectionsSearch } from './features/connections/search';
import { logsSearch } from './features/logs/search';
import { p2pUsersSearch } from './features/p2p/search';
import { packagesSearch } from './features/packages/search';
import { resellersSearch } from './features/resellers/search';
import { usersSearch } from './features/users/search';

/**
 * Code-based routes. Pages are lazy (one chunk per page).
 * Protected pages hang under `authRoute`; admin-only pages under `adminRoute`.
 */
const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  notFoundComponent: () => <NotFoundPage standalone />,
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
  // The layout renders once every page's texts are in (the entry holds only the signed-out ones).
  component: lazyRouteComponent(() => Promise.all([import('./components/layout/SignedInLayout'), import('./i18n/signedInTexts')]).then(([layout]) => layout), 'SignedInLayout'),
});

const homeRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/',
  loader: ({ context }) => prefetchDashboard(context.queryClient),
  component: lazyRouteComponent(() => import('./features/dashboard/DashboardPage'), 'DashboardPage'),
});

/** Admin-only pages: other types are sent to the dashboard (the server refuses them too). */
const adminRoute = createRoute({
  getParentRoute: () => authRoute,
  id: 'admin',
  beforeLoad: async () => {
    const profile = await ensureProfile();
    if (profile.type !== 'admin') throw roleRedirect();
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

const catalogueRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/catalogue',
  validateSearch: catalogueSearch,
  component: lazyRouteComponent(() => import('./features/catalogue/CataloguePage'), 'CataloguePage'),
});

const serversRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/servers',
  component: lazyRouteComponent(() => import('./features/servers/ServersPage'), 'ServersPage'),
});

const newsEditRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/edit_news',
  component: lazyRouteComponent(() => import('./features/news/NewsEditPage'), 'NewsEditPage'),
});

/** Reseller management: masters and admins (plain resellers have no sub-resellers). */
const managerRoute = createRoute({
  getParentRoute: () => authRoute,
  id: 'manager',
  beforeLoad: async () => {
    const profile = await ensureProfile();
    if (profile.type === 'reseller') throw roleRedirect();
  },
});

const resellersRoute = createRoute({
  getParentRoute: () => managerRoute,
  path: '/resellers',
  validateSearch: resellersSearch,
  component: lazyRouteComponent(() => import('./features/resellers/ResellersPage'), 'ResellersPage'),
});
const resellerAddRoute = createRoute({
  getParentRoute: () => managerRoute,
  path: '/resellers/add',
  component: lazyRouteComponent(() => import('./features/resellers/ResellerCreatePage'), 'ResellerCreatePage'),
});
export const resellerDetailRoute = createRoute({
  getParentRoute: () => managerRoute,
  path: '/resellers/$resellerId',
  component: lazyRouteComponent(() => import('./features/resellers/ResellerDetailPage'), 'ResellerDetailPage'),
});
export const resellerEditRoute = createRoute({
  getParentRoute: () => managerRoute,
  path: '/resellers/$resellerId/edit',
  component: lazyRouteComponent(() => import('./features/resellers/ResellerEditPage'), 'ResellerEditPage'),
});
export const resellerDomainsRoute = createRoute({
  getParentRoute: () => managerRoute,
  path: '/resellers/$resellerId/add_domains',
  component: lazyRouteComponent(() => import('./features/resellers/ResellerDomainsPage'), 'ResellerDomainsPage'),
});

const usersRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users',
  validateSearch: usersSearch,
  component: lazyRouteComponent(() => import('./features/users/UsersPage'), 'UsersPage'),
});
const userAddRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users/add',
  component: lazyRouteComponent(() => import('./features/users/UserCreatePage'), 'UserCreatePage'),
});
const trialAddRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users/add_trial',
  component: lazyRouteComponent(() => import('./features/users/TrialCreatePage'), 'TrialCreatePage'),
});
export const userEditRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users/$userId/edit',
  component: lazyRouteComponent(() => import('./features/users/UserEditPage'), 'UserEditPage'),
});

const connectionsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users/connections',
  validateSearch: connectionsSearch,
  component: lazyRouteComponent(() => import('./features/connections/ConnectionsPage'), 'ConnectionsPage'),
});

const migrateRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users/migrate',
  component: lazyRouteComponent(() => import('./features/users/MigratePage'), 'MigratePage'),
});

const p2pUsersRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_users',
  validateSearch: p2pUsersSearch,
  component: lazyRouteComponent(() => import('./features/p2p/P2pUsersPage'), 'P2pUsersPage'),
});
const p2pAddRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_users/add',
  component: lazyRouteComponent(() => import('./features/p2p/P2pCreatePage'), 'P2pCreatePage'),
});
const p2pTrialRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_users/add_trial',
  component: lazyRouteComponent(() => import('./features/p2p/P2pCreatePage'), 'P2pTrialCreatePage'),
});
export const p2pEditRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_users/$userId/edit',
  component: lazyRouteComponent(() => import('./features/p2p/P2pEditPage'), 'P2pEditPage'),
});
const p2pOnlineRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_users/connections',
  component: lazyRouteComponent(() => import('./features/p2p/P2pOnlinePage'), 'P2pOnlinePage'),
});
const p2pMigrateRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_migrate',
  component: lazyRouteComponent(() => import('./features/p2p/P2pMigratePage'), 'P2pMigratePage'),
});
const p2pMigrateUsersRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_migrate_users',
  component: lazyRouteComponent(() => import('./features/p2p/P2pMigrateUsersPage'), 'P2pMigrateUsersPage'),
});

const vodsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/vods',
  component: lazyRouteComponent(() => import('./features/vods/VodsPage'), 'VodsPage'),
});

const adminVodsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/list/vods/adm',
  component: lazyRouteComponent(() => import('./features/vods/AdminVodsPage'), 'AdminVodsPage'),
});

const settingsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/settings',
  component: lazyRouteComponent(() => import('./features/settings/SettingsPage'), 'SettingsPage'),
});

const logsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/logs',
  validateSearch: logsSearch,
  component: lazyRouteComponent(() => import('./features/logs/LogsPage'), 'LogsPage'),
});

const securityRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/profile/security',
  component: lazyRouteComponent(() => import('./features/twofactor/SecurityPage'), 'SecurityPage'),
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  authRoute.addChildren([
    homeRoute,
    adminRoute.addChildren([packagesRoute, packageNewRoute, packageEditRoute, bouquetsRoute, catalogueRoute, serversRoute, newsEditRoute, adminVodsRoute, settingsRoute]),
    managerRoute.addChildren([resellersRoute, resellerAddRoute, resellerDetailRoute, resellerEditRoute, resellerDomainsRoute]),
    usersRoute,
    userAddRoute,
    trialAddRoute,
    migrateRoute,
    connectionsRoute,
    userEditRoute,
    p2pUsersRoute,
    p2pAddRoute,
    p2pTrialRoute,
    p2pEditRoute,
    p2pOnlineRoute,
    p2pMigrateRoute,
    p2pMigrateUsersRoute,
    vodsRoute,
    logsRoute,
    securityRoute,
  ]),
]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    parseSearch: parseSearchString,
    stringifySearch: stringifySearchObject,
    defaultPendingComponent: PageLoader,
    defaultErrorComponent: ({ reset }) => <RouteError reset={reset} />,
    defaultNotFoundComponent: () => <NotFoundPage />,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
