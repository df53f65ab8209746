import '@mantine/core/styles.layer.css';
import '@mantine/notifications/styles.layer.css';
import 'mantine-datatable/styles.layer.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setUnauthorizedHandler } from './api/client';
import { queryClient } from './api/queryClient';
import './i18n';
import { makeRouter } from './router';

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'md' });
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

createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications position="top-right" limit={4} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
