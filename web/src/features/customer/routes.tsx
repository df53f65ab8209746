import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from '../../routing/base';

/** The customer page (public: a line's own session, not the panel's); `router.tsx` assembles every feature's routes. */
const customerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/minha-conta',
  validateSearch: (raw: Record<string, unknown>): { t?: string } => (typeof raw.t === 'string' && raw.t.length <= 100 ? { t: raw.t } : {}),
  component: lazyRouteComponent(() => import('./CustomerPage'), 'CustomerPage'),
});

export const customerRoutes = [customerRoute] as const;
