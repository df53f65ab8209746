import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { adminRoute } from '../../routing/base';

/** The settings pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const settingsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/settings',
  component: lazyRouteComponent(() => import('./SettingsPage'), 'SettingsPage'),
});

export const settingsRoutes = [settingsRoute] as const;
