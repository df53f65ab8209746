import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';

/** The trial page's settings (lazy: its own chunk); `router.tsx` assembles every feature's routes. */
const trialPageRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/trial-page',
  component: lazyRouteComponent(() => import('./TrialPageSettingsPage'), 'TrialPageSettingsPage'),
});

export const trialPageRoutes = [trialPageRoute] as const;
