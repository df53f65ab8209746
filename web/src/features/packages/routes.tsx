import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { adminRoute } from '../../routing/base';
import { packagesSearch } from './search';

/** The packages pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const packagesRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/packages',
  validateSearch: packagesSearch,
  component: lazyRouteComponent(() => import('./PackagesPage'), 'PackagesPage'),
});

const packageNewRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/packages/new',
  component: lazyRouteComponent(() => import('./PackageCreatePage'), 'PackageCreatePage'),
});

const packageEditRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/packages/$packageId/edit',
  component: lazyRouteComponent(() => import('./PackageEditPage'), 'PackageEditPage'),
});

export const packagesRoutes = [packagesRoute, packageNewRoute, packageEditRoute] as const;
