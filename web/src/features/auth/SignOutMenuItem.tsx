import { Menu } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSignOut } from './session';

/** The user menu's sign-out. */
export function SignOutMenuItem() {
  const { t } = useTranslation();
  const signOut = useSignOut();
  return (
    <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void signOut.mutateAsync()} data-testid="logout">
      {t('topbar.logout')}
    </Menu.Item>
  );
}
