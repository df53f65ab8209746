import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';
import { prefetchDashboard } from './prefetch';

/** The dashboard pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const homeRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/',
  loader: ({ context }) => prefetchDashboard(context.queryClient),
  component: lazyRouteComponent(() => import('./DashboardPage'), 'DashboardPage'),
});

export const dashboardRoutes = [homeRoute] as const;
