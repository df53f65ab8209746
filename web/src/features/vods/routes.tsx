import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { adminRoute, managerRoute } from '../../routing/base';

/** The vods pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
/** Masters and admins: the ones who may ask for content (docs/rules.md); plain resellers do not see it. */
const vodsRoute = createRoute({
  getParentRoute: () => managerRoute,
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
