import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';

/** The API keys page (lazy: its own chunk); `router.tsx` assembles every feature's routes. */
const apiKeysRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/profile/api',
  component: lazyRouteComponent(() => import('./ApiKeysPage'), 'ApiKeysPage'),
});

export const apiKeysRoutes = [apiKeysRoute] as const;
