import './styles/signed-out.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setUnauthorizedHandler } from './api/client';
import { quietShownApiErrors } from './api/notify';
import { queryClient } from './api/queryClient';
import { i18nReady } from './i18n';
import { registerServiceWorkerWhenIdle } from './lib/serviceWorker';
import { makeRouter } from './router';

quietShownApiErrors();
const router = makeRouter(queryClient);

// A 401 on any call: the session is already cleared by the client. Leave the signed-in
// pages first, then drop the caches (so mounted queries do not refetch); once only.
let leaving = false;
setUnauthorizedHandler(() => {
  if (leaving) return;
  leaving = true;
  void router.navigate({ to: '/auth/sign-in' }).finally(() => {
    queryClient.clear();
    leaving = false;
  });
});

const root = document.getElementById('root');
if (!root) throw new Error('#root missing');

// English readers wait for their texts chunk (pt-BR is in the entry).
void i18nReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  ),
);

registerServiceWorkerWhenIdle();
