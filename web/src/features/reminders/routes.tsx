import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';
import { historySearch } from './search';

/** The reminders pages (lazy: one chunk per page); `router.tsx` assembles every feature's routes. */
const remindersRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/reminders',
  component: lazyRouteComponent(() => import('./RemindersPage'), 'RemindersPage'),
});

const historyRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/reminders/history',
  validateSearch: historySearch,
  component: lazyRouteComponent(() => import('./HistoryPage'), 'HistoryPage'),
});

export const remindersRoutes = [remindersRoute, historyRoute] as const;
