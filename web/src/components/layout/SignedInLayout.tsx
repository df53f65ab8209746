import '../../styles/signed-in.css';
import '@mantine/notifications/styles.layer.css';
import 'mantine-datatable/styles.layer.css';
import '../../i18n/dayjsLocale';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { AppLayout } from './AppLayout';

/**
 * The signed-in pages' lazy chunk: the full Mantine CSS, modals and notifications load here,
 * so the sign-in page does not download them (first-load budget, scripts/bundle-budget.mjs).
 * Modals live inside the router so their content may use Link and router hooks.
 */
export function SignedInLayout() {
  return (
    <ModalsProvider>
      <Notifications position="top-right" limit={4} />
      <AppLayout />
    </ModalsProvider>
  );
}
