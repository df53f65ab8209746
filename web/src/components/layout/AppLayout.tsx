import { AppShell, Center, Loader } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Outlet } from '@tanstack/react-router';
import { type ReactNode, Suspense } from 'react';
import { useProfile } from '../../api/profile';
import { PHONE_QUERY } from '../../lib/media';
import { Navbar } from './Navbar';
import { TopBar } from './TopBar';

/** Signed-in shell: top bar, role-filtered sidebar (burger on phones) and the page. `accountItems`: the user menu's entries. */
export function AppLayout({ accountItems }: { accountItems: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  // On a phone the menu is built when the burger opens it, not with the first page (a phone's CPU).
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  useProfile(); // loads the profile on mount (credits, type for the menu)
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', sm: 'md' }}
    >
      <AppShell.Header>
        <TopBar opened={opened} toggle={toggle} accountItems={accountItems} />
      </AppShell.Header>
      <AppShell.Navbar>
        {(opened || !phone) && <Navbar onNavigate={close} />}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense
          fallback={
            <Center py="xl">
              <Loader />
            </Center>
          }
        >
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
