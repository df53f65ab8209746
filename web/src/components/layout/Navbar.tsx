import { NavLink, ScrollArea, Skeleton, Stack } from '@mantine/core';
import { IconBook, IconMessages } from '@tabler/icons-react';
import { useComplements, useP2pConfigured } from '../../api/complements';
import { Link, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/profile';
import { MENU_ENTRIES, type MenuEntry, navTestId, visibleMenu } from './menu';

function matches(path: string, pathname: string): boolean {
  if (path === '/') return pathname === '/';
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** Only the most specific entry is active: /users/add_trial lights "New trial", not "Users". */
function isActive(path: string, pathname: string): boolean {
  if (!matches(path, pathname)) return false;
  return !MENU_ENTRIES.some((e) => e.path.length > path.length && matches(e.path, pathname));
}

function EntryLink({ entry, pathname, onNavigate }: { entry: MenuEntry; pathname: string; onNavigate: () => void }) {
  const { t } = useTranslation();
  const p2pOff = useP2pConfigured() === false;
  const Icon = entry.icon;
  const unavailable = entry.needsP2p && p2pOff;
  return (
    <NavLink
      component={Link}
      to={entry.path as '/'}
      // The router's own aria-current must agree with isActive (by default /users would be "current" on /users/connections too).
      activeOptions={{ exact: true, includeSearch: false }}
      label={t(entry.labelKey)}
      // Still a link: its page says why and whom to ask.
      description={unavailable ? <span data-testid={`${navTestId(entry.path)}-unavailable`}>{t('p2p.notConfigured.nav')}</span> : undefined}
      leftSection={<Icon size={18} stroke={1.6} />}
      active={isActive(entry.path, pathname)}
      onClick={onNavigate}
      data-testid={navTestId(entry.path)}
    />
  );
}

/** Sidebar built from the menu table, filtered by the signed-in reseller's type. */
export function Navbar({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const profile = useProfile();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const complements = useComplements();

  if (!profile.data) {
    return (
      <Stack gap="xs" p="md">
        {[1, 2, 3].map((i) => (
          <Skeleton key={i} h={32} />
        ))}
      </Stack>
    );
  }

  return (
    <ScrollArea type="auto" p="xs" component="nav" aria-label="menu">
      {visibleMenu(profile.data.type).map((group) =>
        group.labelKey ? (
          <NavLink
            key={group.id}
            label={t(group.labelKey)}
            defaultOpened
            childrenOffset={12}
            fw={600}
            data-testid={`nav-group-${group.id}`}
          >
            {group.entries.map((e) => (
              <EntryLink key={e.path} entry={e} pathname={pathname} onNavigate={onNavigate} />
            ))}
          </NavLink>
        ) : (
          group.entries.map((e) => <EntryLink key={e.path} entry={e} pathname={pathname} onNavigate={onNavigate} />)
        ),
      )}
      <ExternalLinks settings={complements.data?.settings} />
    </ScrollArea>
  );
}

/** Only http(s) addresses become links (the server accepts nothing else either). */
const safeUrl = (v: string | undefined) => (v && /^https?:\/\/\S+$/i.test(v.trim()) ? v.trim() : undefined);

/** The chat group and the manual, from the settings, only when set; new tab, no opener. */
export function ExternalLinks({ settings }: { settings: Record<string, string> | undefined }) {
  const { t } = useTranslation();
  const links = [
    { key: 'chat', url: safeUrl(settings?.chat_group_url), label: t('extLinks.chat'), icon: IconMessages },
    { key: 'manual', url: safeUrl(settings?.manual_url), label: t('extLinks.manual'), icon: IconBook },
  ].filter((l) => l.url);
  if (links.length === 0) return null;
  return (
    <NavLink label={t('extLinks.group')} defaultOpened childrenOffset={12} fw={600} data-testid="nav-group-links">
      {links.map(({ key, url, label, icon: Icon }) => (
        <NavLink
          key={key}
          component="a"
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          label={label}
          aria-label={t('extLinks.newTab', { label })}
          leftSection={<Icon size={18} stroke={1.6} />}
          data-testid={`nav-external-${key}`}
        />
      ))}
    </NavLink>
  );
}
