import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { adminRoute, authRoute } from '../../routing/base';

/** The vods pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const vodsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/vods',
  component: lazyRouteComponent(() => import('./VodsPage'), 'VodsPage'),
});

const adminVodsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/list/vods/adm',
  component: lazyRouteComponent(() => import('./AdminVodsPage'), 'AdminVodsPage'),
});

export const vodsRoutesAdmin = [adminVodsRoute] as const;
export const vodsRoutes = [vodsRoute] as const;
