import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { authRoute } from '../../routing/base';

/** The account's Telegram bot (lazy: its own chunk); `router.tsx` assembles every feature's routes. */
const telegramRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/telegram',
  component: lazyRouteComponent(() => import('./TelegramPage'), 'TelegramPage'),
});

export const telegramRoutes = [telegramRoute] as const;
