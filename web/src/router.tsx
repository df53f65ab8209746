import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { NotFoundPage, PageLoader, RouteError } from './components/RouteStates';
import { parseSearchString, stringifySearchObject } from './components/table/tableSearch';
import { bouquetsRoutes } from './features/bouquets/routes';
import { catalogueRoutes } from './features/catalogue/routes';
import { connectionsRoutes } from './features/connections/routes';
import { dashboardRoutes } from './features/dashboard/routes';
import { logsRoutes } from './features/logs/routes';
import { newsRoutes } from './features/news/routes';
import { p2pRoutes } from './features/p2p/routes';
import { packagesRoutes } from './features/packages/routes';
import { resellersRoutes } from './features/resellers/routes';
import { serversRoutes } from './features/servers/routes';
import { apiKeysRoutes } from './features/apikeys/routes';
import { remindersRoutes } from './features/reminders/routes';
import { reportsRoutes } from './features/reports/routes';
import { paymentsRoutes } from './features/payments/routes';
import { creditSalesRoutes } from './features/creditsales/routes';
import { trialPageRoutes } from './features/trialpage/routes';
import { telegramRoutes } from './features/telegram/routes';
import { settingsRoutes } from './features/settings/routes';
import { twofactorRoutes } from './features/twofactor/routes';
import { usersRoutes } from './features/lines/routes';
import { vodsRoutes, vodsRoutesAdmin } from './features/vods/routes';
import { adminRoute, authRoute, managerRoute, rootRoute } from './routing/base';
import { lightPageRoutes } from './routing/lightPages';

/**
 * The route tree, assembled from each feature's `routes.tsx` (pages are lazy there: one chunk
 * per page). The layout routes (signed-in, admin-only, managers) live in `routing/base.tsx`. The
 * sign-in, customer and trial pages are not here: they are the light pages (src/public, public.html).
 */
const routeTree = rootRoute.addChildren([
  ...lightPageRoutes,
  authRoute.addChildren([
    ...dashboardRoutes,
    ...reportsRoutes,
    adminRoute.addChildren([
      ...packagesRoutes,
      ...bouquetsRoutes,
      ...catalogueRoutes,
      ...serversRoutes,
      ...apiKeysRoutes,
      ...remindersRoutes,
      ...paymentsRoutes,
      ...newsRoutes,
      ...vodsRoutesAdmin,
      ...settingsRoutes,
    ]),
    managerRoute.addChildren([...resellersRoutes, ...vodsRoutes]),
    ...trialPageRoutes,
    ...telegramRoutes,
    ...usersRoutes,
    ...connectionsRoutes,
    ...p2pRoutes,
    ...logsRoutes,
    ...creditSalesRoutes,
    ...twofactorRoutes,
  ]),
]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    parseSearch: parseSearchString,
    stringifySearch: stringifySearchObject,
    defaultPendingComponent: PageLoader,
    defaultErrorComponent: ({ reset }) => <RouteError reset={reset} />,
    defaultNotFoundComponent: () => <NotFoundPage />,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
