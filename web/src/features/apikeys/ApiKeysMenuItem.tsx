import { Menu } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** The user menu's way to the API keys page. */
export function ApiKeysMenuItem() {
  const { t } = useTranslation();
  return (
    <Menu.Item leftSection={<IconPlugConnected size={16} />} renderRoot={(props) => <Link {...props} to="/profile/api" />} data-testid="menu-api-keys">
      {t('nav.apiKeys')}
    </Menu.Item>
  );
}
