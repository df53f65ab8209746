import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './errors';

/** One QueryClient for the app (also used outside React, e.g. reloadProfile). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // One retry on 5xx answers; never on 4xx, network errors (already notified), timeouts or an
      // outside system that is not configured (503 NOT_CONFIGURED: asking again changes nothing).
      retry: (count, err) => count < 1 && isApiError(err) && err.status >= 500 && err.code !== 'NOT_CONFIGURED',
    },
    mutations: { retry: false },
  },
});
