import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';
import { paymentsSearch } from './search';

/** The PIX payments page (lazy: its own chunk); `router.tsx` assembles every feature's routes. */
const paymentsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/payments',
  validateSearch: paymentsSearch,
  component: lazyRouteComponent(() => import('./PaymentsPage'), 'PaymentsPage'),
});

export const paymentsRoutes = [paymentsRoute] as const;
