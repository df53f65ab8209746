import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { managerRoute } from '../../routing/base';
import { resellersSearch } from './search';

/** The resellers pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const resellersRoute = createRoute({
  getParentRoute: () => managerRoute,
  path: '/resellers',
  validateSearch: resellersSearch,
  component: lazyRouteComponent(() => import('./ResellersPage'), 'ResellersPage'),
});

const resellerAddRoute = createRoute({
  getParentRoute: () => managerRoute,
  path: '/resellers/add',
  component: lazyRouteComponent(() => import('./ResellerCreatePage'), 'ResellerCreatePage'),
});

const resellerDetailRoute = createRoute({
  getParentRoute: () => managerRoute,
  path: '/resellers/$resellerId',
  component: lazyRouteComponent(() => import('./ResellerDetailPage'), 'ResellerDetailPage'),
});

const resellerEditRoute = createRoute({
  getParentRoute: () => managerRoute,
  path: '/resellers/$resellerId/edit',
  component: lazyRouteComponent(() => import('./ResellerEditPage'), 'ResellerEditPage'),
});

const resellerDomainsRoute = createRoute({
  getParentRoute: () => managerRoute,
  path: '/resellers/$resellerId/add_domains',
  component: lazyRouteComponent(() => import('./ResellerDomainsPage'), 'ResellerDomainsPage'),
});

export const resellersRoutes = [resellersRoute, resellerAddRoute, resellerDetailRoute, resellerEditRoute, resellerDomainsRoute] as const;
