import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';
import { p2pUsersSearch } from './search';

/** The p2p pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const p2pUsersRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_users',
  validateSearch: p2pUsersSearch,
  component: lazyRouteComponent(() => import('./P2pUsersPage'), 'P2pUsersPage'),
});

const p2pAddRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_users/add',
  component: lazyRouteComponent(() => import('./P2pCreatePage'), 'P2pCreatePage'),
});

const p2pTrialRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_users/add_trial',
  component: lazyRouteComponent(() => import('./P2pCreatePage'), 'P2pTrialCreatePage'),
});

const p2pEditRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_users/$userId/edit',
  component: lazyRouteComponent(() => import('./P2pEditPage'), 'P2pEditPage'),
});

const p2pOnlineRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_users/connections',
  component: lazyRouteComponent(() => import('./P2pOnlinePage'), 'P2pOnlinePage'),
});

const p2pMigrateRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_migrate',
  component: lazyRouteComponent(() => import('./P2pMigratePage'), 'P2pMigratePage'),
});

const p2pMigrateUsersRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/p2p_migrate_users',
  component: lazyRouteComponent(() => import('./P2pMigrateUsersPage'), 'P2pMigrateUsersPage'),
});

export const p2pRoutes = [p2pUsersRoute, p2pAddRoute, p2pTrialRoute, p2pEditRoute, p2pOnlineRoute, p2pMigrateRoute, p2pMigrateUsersRoute] as const;
