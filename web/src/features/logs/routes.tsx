import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';
import { logsSearch } from './search';

/** The logs pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const logsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/logs',
  validateSearch: logsSearch,
  component: lazyRouteComponent(() => import('./LogsPage'), 'LogsPage'),
});

export const logsRoutes = [logsRoute] as const;
