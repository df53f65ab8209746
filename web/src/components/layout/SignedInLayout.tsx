import '../../styles/signed-in.css';
import '@mantine/notifications/styles.layer.css';
import 'mantine-datatable/styles.layer.css';
import '../../i18n/dayjsLocale';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { AppThemeProvider } from '../../theme/AppThemeProvider';
import { AppLayout } from './AppLayout';

/**
 * The signed-in pages' lazy chunk (through routing/SignedInApp): Mantine (provider, CSS, modals,
 * notifications) loads here, so the sign-in page does not download it (first-load budget,
 * scripts/bundle-budget.mjs). Modals live inside the router so their content may use Link and
 * router hooks. The user menu's entries come from the app shell: the layout knows no feature.
 */
export function SignedInLayout({ accountItems }: { accountItems: ReactNode }) {
  return (
    <AppThemeProvider>
      <ModalsProvider>
        {/* Bottom right (the whole width's bottom on phones): a toast never covers the header, whose credits badge it may be telling about. */}
        <Notifications position="bottom-right" limit={4} />
        <AppLayout accountItems={accountItems} />
      </ModalsProvider>
    </AppThemeProvider>
  );
}
