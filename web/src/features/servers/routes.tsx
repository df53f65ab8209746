import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { adminRoute } from '../../routing/base';

/** The servers pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const serversRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/servers',
  component: lazyRouteComponent(() => import('./ServersPage'), 'ServersPage'),
});

export const serversRoutes = [serversRoute] as const;
