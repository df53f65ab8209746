import {
  IconArrowsExchange,
  IconBellRinging,
  IconBrandTelegram,
  IconCash,
  IconTestPipe,
  IconBox,
  IconBroadcast,
  IconCategory,
  IconChartBar,
  IconServer2,
  IconMovie,
  IconSettings,
  IconClockPlus,
  IconCoins,
  IconCreditCard,
  IconDatabaseImport,
  IconFlask,
  IconShare,
  IconUserShare,
  IconWifi,
  IconLayoutDashboard,
  IconListDetails,
  IconNews,
  IconStack2,
  IconUserPlus,
  IconUsers,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';
import type { Role } from '../../api/types';

/**
 * THE sidebar table. Group role rules follow docs/rules.md, "Roles and reach";
 * an entry may narrow them further with its own `roles`.
 * To add a page: create its route in src/router.tsx, then add one line to MENU_ENTRIES.
 */
export type MenuGroupId = 'main' | 'admin' | 'resellers' | 'users' | 'tools' | 'logs';

export interface MenuGroup {
  id: MenuGroupId;
  /** i18n key of the group title (none for 'main': its entries are shown on top). */
  labelKey?: string;
  roles: readonly Role[];
}

export interface MenuEntry {
  /** Route path, e.g. '/packages'. Test id: `nav-<path without leading slash, '/' -> '-'>` ('/' -> nav-dashboard). */
  path: string;
  labelKey: string;
  icon: Icon;
  group: MenuGroupId;
  /** Extra restriction on top of the group's roles. */
  roles?: readonly Role[];
  /** Works only with the P2P server: without it the entry says it is unavailable (and the page why). */
  needsP2p?: true;
}

const EVERYONE: readonly Role[] = ['admin', 'master', 'reseller'];

export const MENU_GROUPS: readonly MenuGroup[] = [
  { id: 'main', roles: EVERYONE },
  { id: 'admin', labelKey: 'nav.groups.admin', roles: ['admin'] },
  { id: 'resellers', labelKey: 'nav.groups.resellers', roles: ['admin', 'master'] },
  { id: 'users', labelKey: 'nav.groups.users', roles: EVERYONE },
  { id: 'tools', labelKey: 'nav.groups.tools', roles: EVERYONE },
  { id: 'logs', labelKey: 'nav.groups.logs', roles: EVERYONE },
];

export const MENU_ENTRIES: readonly MenuEntry[] = [
  { path: '/', labelKey: 'nav.dashboard', icon: IconLayoutDashboard, group: 'main' },
  { path: '/reports', labelKey: 'nav.reports', icon: IconChartBar, group: 'main' },
  { path: '/packages', labelKey: 'nav.packages', icon: IconBox, group: 'admin' },
  { path: '/bouquets', labelKey: 'nav.bouquets', icon: IconStack2, group: 'admin' },
  { path: '/catalogue', labelKey: 'nav.catalogue', icon: IconCategory, group: 'admin' },
  { path: '/servers', labelKey: 'nav.servers', icon: IconServer2, group: 'admin' },
  { path: '/edit_news', labelKey: 'nav.editNews', icon: IconNews, group: 'admin' },
  { path: '/list/vods/adm', labelKey: 'vods.admin.nav', icon: IconListDetails, group: 'admin' },
  { path: '/settings', labelKey: 'settings.title', icon: IconSettings, group: 'admin' },
  { path: '/resellers', labelKey: 'nav.resellers', icon: IconUsersGroup, group: 'resellers' },
  { path: '/resellers/add', labelKey: 'nav.resellersAdd', icon: IconUserPlus, group: 'resellers' },
  { path: '/users', labelKey: 'nav.users', icon: IconUsers, group: 'users' },
  { path: '/users/add', labelKey: 'nav.usersAdd', icon: IconUserPlus, group: 'users' },
  { path: '/users/add_trial', labelKey: 'nav.usersAddTrial', icon: IconClockPlus, group: 'users' },
  { path: '/users/migrate', labelKey: 'migrate.nav', icon: IconArrowsExchange, group: 'users' },
  { path: '/users/connections', labelKey: 'nav.connections', icon: IconBroadcast, group: 'users' },
  { path: '/p2p_users', labelKey: 'nav.p2pUsers', icon: IconShare, group: 'users' },
  { path: '/p2p_users/add', labelKey: 'nav.p2pUsersAdd', icon: IconUserShare, group: 'users', needsP2p: true },
  { path: '/p2p_users/add_trial', labelKey: 'nav.p2pUsersAddTrial', icon: IconFlask, group: 'users', needsP2p: true },
  { path: '/p2p_users/connections', labelKey: 'nav.p2pOnline', icon: IconWifi, group: 'users', needsP2p: true },
  { path: '/reminders', labelKey: 'nav.reminders', icon: IconBellRinging, group: 'tools' },
  { path: '/payments', labelKey: 'nav.payments', icon: IconCash, group: 'tools' },
  { path: '/credit-purchases', labelKey: 'nav.creditPurchases', icon: IconCreditCard, group: 'tools' },
  { path: '/trial-page', labelKey: 'nav.trialPage', icon: IconTestPipe, group: 'tools' },
  { path: '/telegram', labelKey: 'nav.telegram', icon: IconBrandTelegram, group: 'tools' },
  { path: '/vods', labelKey: 'vods.title', icon: IconMovie, group: 'tools', roles: ['admin', 'master'] },
  { path: '/p2p_migrate', labelKey: 'nav.p2pMigrate', icon: IconCoins, group: 'tools' },
  { path: '/p2p_migrate_users', labelKey: 'nav.p2pMigrateUsers', icon: IconDatabaseImport, group: 'tools', needsP2p: true },
  { path: '/logs', labelKey: 'nav.logs', icon: IconListDetails, group: 'logs' },
];

export function navTestId(path: string): string {
  const p = path.replace(/^\/+|\/+$/g, '').replace(/\//g, '-');
  return `nav-${p || 'dashboard'}`;
}

export interface VisibleGroup extends MenuGroup {
  entries: MenuEntry[];
}

/** Groups (in table order) with the entries a role may see; empty groups are left out. */
export function visibleMenu(role: Role | undefined): VisibleGroup[] {
  if (!role) return [];
  return MENU_GROUPS.filter((g) => g.roles.includes(role))
    .map((g) => ({
      ...g,
      entries: MENU_ENTRIES.filter((e) => e.group === g.id && (!e.roles || e.roles.includes(role))),
    }))
    .filter((g) => g.entries.length > 0);
}

/** Whether a role may open a path according to the menu table (used by route guards). */
export function canSeeGroup(role: Role | undefined, group: MenuGroupId): boolean {
  return !!role && !!MENU_GROUPS.find((g) => g.id === group)?.roles.includes(role);
}
