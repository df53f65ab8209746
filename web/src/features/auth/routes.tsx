import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { isSignedIn } from '../../api/session';
import { rootRoute } from '../../routing/base';

/** The sign-in page (signed-out; a stored session goes to the dashboard). */
export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/sign-in',
  beforeLoad: () => {
    if (isSignedIn()) throw redirect({ to: '/' });
  },
  component: lazyRouteComponent(() => import('./SignInPage'), 'SignInPage'),
});
