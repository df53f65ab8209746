import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';
import { purchasesSearch } from './search';

/** The credit purchases page (lazy: its own chunk): buy from the parent, the purchases and sales, the seller's offer. */
const creditPurchasesRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/credit-purchases',
  validateSearch: purchasesSearch,
  component: lazyRouteComponent(() => import('./CreditPurchasesPage'), 'CreditPurchasesPage'),
});

export const creditSalesRoutes = [creditPurchasesRoute] as const;
