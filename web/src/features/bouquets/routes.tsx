import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { adminRoute } from '../../routing/base';

/** The bouquets pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const bouquetsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/bouquets',
  component: lazyRouteComponent(() => import('./BouquetsPage'), 'BouquetsPage'),
});

export const bouquetsRoutes = [bouquetsRoute] as const;
