import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';

/** The twofactor pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const securityRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/profile/security',
  component: lazyRouteComponent(() => import('./SecurityPage'), 'SecurityPage'),
});

export const twofactorRoutes = [securityRoute] as const;
