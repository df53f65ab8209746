import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';
import { connectionsSearch } from './search';

/** The connections pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const connectionsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/users/connections',
  validateSearch: connectionsSearch,
  component: lazyRouteComponent(() => import('./ConnectionsPage'), 'ConnectionsPage'),
});

export const connectionsRoutes = [connectionsRoute] as const;
