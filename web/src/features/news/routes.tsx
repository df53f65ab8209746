import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { adminRoute } from '../../routing/base';

/** The news pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const newsEditRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/edit_news',
  component: lazyRouteComponent(() => import('./NewsEditPage'), 'NewsEditPage'),
});

export const newsRoutes = [newsEditRoute] as const;
