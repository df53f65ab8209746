import '../../styles/signed-in.css';
import '../../i18n/dayjsLocale';
import { ModalsProvider } from '@mantine/modals';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { AppThemeProvider } from '../../theme/AppThemeProvider';
import { AppLayout } from './AppLayout';

// A toasts chunk that fails to load must not take the pages down with it: the panel goes on without toasts.
const Toasts = lazy<ComponentType>(() => import('./Toasts').catch(() => ({ default: () => null })));

/**
 * The signed-in pages' lazy chunk (through routing/SignedInApp): Mantine (provider, CSS, modals)
 * loads here, so the sign-in page does not download it (first-load budget,
 * scripts/bundle-budget.mjs). Modals live inside the router so their content may use Link and
 * router hooks. The user menu's entries come from the app shell: the layout knows no feature.
 */
export function SignedInLayout({ accountItems }: { accountItems: ReactNode }) {
  return (
    <AppThemeProvider>
      <ModalsProvider>
        <Suspense fallback={null}>
          <Toasts />
        </Suspense>
        <AppLayout accountItems={accountItems} />
      </ModalsProvider>
    </AppThemeProvider>
  );
}
