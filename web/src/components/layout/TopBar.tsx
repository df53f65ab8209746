import { ActionIcon, Badge, Burger, Group, Indicator, Menu, Skeleton, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconBell, IconChevronDown, IconCoin, IconPlus, IconUserCircle } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/profile';
import { formatNumber } from '../../lib/format';
import { LanguageSwitch } from './LanguageSwitch';

/** The caller's balance and its "Comprar créditos" action (by PIX from the parent: the credit purchases page opens its form); not for admins, who never pay (docs/rules.md, "Credits"). */
function Credits() {
  const { t } = useTranslation();
  const { data } = useProfile();
  const navigate = useNavigate();
  if (!data) return <Skeleton h={22} w={70} />;
  if (data.type === 'admin') return null;
  return (
    <Group gap={2} wrap="nowrap">
      <Tooltip label={t('topbar.credits')}>
        <Badge size="lg" variant="light" color="teal" leftSection={<IconCoin size={16} />} data-testid="topbar-credits" aria-label={t('topbar.credits')}>
          {formatNumber(data.credits)}
        </Badge>
      </Tooltip>
      <Tooltip label={t('topbar.buyCredits')}>
        <ActionIcon onClick={() => void navigate({ to: '/credit-purchases', search: { buy: '1' } })} variant="light" color="teal" size="md" aria-label={t('topbar.buyCredits')} data-testid="topbar-buy-credits">
          <IconPlus size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function NotificationsMenu() {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" size="lg" aria-label={t('topbar.notifications')} data-testid="notifications">
          <Indicator disabled size={8}>
            <IconBell size={20} />
          </Indicator>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('topbar.notifications')}</Menu.Label>
        <Text size="sm" c="dimmed" px="sm" py="xs" data-testid="notifications-empty">
          {t('topbar.noNotifications')}
        </Text>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The signed-in user's name and menu; its entries (security, sign-out) come from the app shell. */
function UserMenu({ items }: { items: ReactNode }) {
  const { t } = useTranslation();
  const { data } = useProfile();
  return (
    <Menu position="bottom-end" width={200} shadow="md">
      <Menu.Target>
        {/* Named by its content ("Menu do usuário" + the visible username), so the name contains the visible text. */}
        <ActionIcon variant="subtle" size="lg" w="auto" px={6} data-testid="user-menu">
          <Group gap={4} wrap="nowrap">
            <VisuallyHidden>{t('topbar.userMenu')}</VisuallyHidden>
            <IconUserCircle size={22} />
            <Text size="sm" fw={500} visibleFrom="sm" maw={140} truncate>
              {data?.username}
            </Text>
            <IconChevronDown size={14} />
          </Group>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {t('topbar.signedInAs')} <b data-testid="user-menu-username">{data?.username}</b>
        </Menu.Label>
        {items}
      </Menu.Dropdown>
    </Menu>
  );
}

export function TopBar({ opened, toggle, accountItems }: { opened: boolean; toggle: () => void; accountItems: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px="sm" justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap">
        <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('topbar.toggleMenu')} data-testid="nav-burger" />
        <Text fw={700} size="lg" visibleFrom="xs" truncate>
          {t('app.name')}
        </Text>
      </Group>
      <Group gap={6} wrap="nowrap">
        <Credits />
        <LanguageSwitch />
        <NotificationsMenu />
        <UserMenu items={accountItems} />
      </Group>
    </Group>
  );
}
