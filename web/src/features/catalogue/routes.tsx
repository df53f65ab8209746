import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { adminRoute } from '../../routing/base';
import { catalogueSearch } from './search';

/** The catalogue pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const catalogueRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/catalogue',
  validateSearch: catalogueSearch,
  component: lazyRouteComponent(() => import('./CataloguePage'), 'CataloguePage'),
});

export const catalogueRoutes = [catalogueRoute] as const;
