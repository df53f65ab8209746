import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';
import { usersSearch } from './search';

/** The users pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const usersRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users',
  validateSearch: usersSearch,
  component: lazyRouteComponent(() => import('./UsersPage'), 'UsersPage'),
});

const userAddRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users/add',
  component: lazyRouteComponent(() => import('./UserCreatePage'), 'UserCreatePage'),
});

const trialAddRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users/add_trial',
  component: lazyRouteComponent(() => import('./TrialCreatePage'), 'TrialCreatePage'),
});

const userEditRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users/$userId/edit',
  component: lazyRouteComponent(() => import('./UserEditPage'), 'UserEditPage'),
});

const migrateRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users/migrate',
  component: lazyRouteComponent(() => import('./MigratePage'), 'MigratePage'),
});

export const usersRoutes = [usersRoute, userAddRoute, trialAddRoute, userEditRoute, migrateRoute] as const;
