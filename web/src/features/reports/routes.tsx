import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';
import { reportsSearch } from './search';

/** The reports page, for every signed-in role (lazy: its own chunk, the charts a chunk of their own inside it). */
const reportsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/reports',
  validateSearch: reportsSearch,
  component: lazyRouteComponent(() => import('./ReportsPage'), 'ReportsPage'),
});

export const reportsRoutes = [reportsRoute] as const;
