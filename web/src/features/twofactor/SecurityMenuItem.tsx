import { Menu } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { SECURITY_PATH } from './TwoFactorGate';

/** The user menu's way to the security page (2FA). */
export function SecurityMenuItem() {
  const { t } = useTranslation();
  return (
    <Menu.Item leftSection={<IconShieldLock size={16} />} renderRoot={(props) => <Link {...props} to={SECURITY_PATH} />} data-testid="menu-security">
      {t('twoFactor.menu')}
    </Menu.Item>
  );
}
