import './styles/signed-out.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { quietShownApiErrors } from './api/notify';
import { queryClient } from './api/queryClient';
import { i18nReady } from './i18n';
import { registerServiceWorkerWhenIdle } from './lib/serviceWorker';
import { makeRouter } from './router';

quietShownApiErrors();
const router = makeRouter(queryClient);

// A 401 on any call: the client clears the session and loads the sign-in page (api/client.ts).

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
