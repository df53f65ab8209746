import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { Api, byTestId, type Line, lineAction, type Locale, pathOf, type Role, rowWithText, signInWithToken, toast, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

/** What web/src/i18n/index.ts logs (console.error) for a key no language has, or a plural key without `count`. */
const MISSING_KEY = '[i18n] missing key:';
const POLL = { timeout: 10_000, interval: 100 };
const LANGS: readonly Locale[] = ['pt-BR', 'en-US'];

/** The sidebar entries each role has (web/src/components/layout/menu.ts), as test id and path. */
const MENU: Record<Role, [string, string][]> = {
  admin: [
    ['nav-packages', '/packages'],
    ['nav-bouquets', '/bouquets'],
    ['nav-catalogue', '/catalogue'],
    ['nav-servers', '/servers'],
    ['nav-edit_news', '/edit_news'],
    ['nav-list-vods-adm', '/list/vods/adm'],
    ['nav-settings', '/settings'],
    ['nav-resellers', '/resellers'],
    ['nav-resellers-add', '/resellers/add'],
    ['nav-users', '/users'],
    ['nav-users-add', '/users/add'],
    ['nav-users-add_trial', '/users/add_trial'],
    ['nav-users-migrate', '/users/migrate'],
    ['nav-users-connections', '/users/connections'],
    ['nav-p2p_users', '/p2p_users'],
    ['nav-p2p_users-add', '/p2p_users/add'],
    ['nav-p2p_users-add_trial', '/p2p_users/add_trial'],
    ['nav-p2p_users-connections', '/p2p_users/connections'],
    ['nav-vods', '/vods'],
    ['nav-p2p_migrate', '/p2p_migrate'],
    ['nav-p2p_migrate_users', '/p2p_migrate_users'],
    ['nav-logs', '/logs'],
    ['nav-reports', '/reports'],
    ['nav-dashboard', '/'],
  ],
  master: [
    ['nav-resellers', '/resellers'],
    ['nav-resellers-add', '/resellers/add'],
    ['nav-users', '/users'],
    ['nav-users-add', '/users/add'],
    ['nav-users-add_trial', '/users/add_trial'],
    ['nav-users-migrate', '/users/migrate'],
    ['nav-users-connections', '/users/connections'],
    ['nav-p2p_users', '/p2p_users'],
    ['nav-p2p_users-add', '/p2p_users/add'],
    ['nav-p2p_users-add_trial', '/p2p_users/add_trial'],
    ['nav-p2p_users-connections', '/p2p_users/connections'],
    ['nav-vods', '/vods'],
    ['nav-p2p_migrate', '/p2p_migrate'],
    ['nav-p2p_migrate_users', '/p2p_migrate_users'],
    ['nav-logs', '/logs'],
    ['nav-reports', '/reports'],
    ['nav-dashboard', '/'],
  ],
  reseller: [
    ['nav-users', '/users'],
    ['nav-users-add', '/users/add'],
    ['nav-users-add_trial', '/users/add_trial'],
    ['nav-users-migrate', '/users/migrate'],
    ['nav-users-connections', '/users/connections'],
    ['nav-p2p_users', '/p2p_users'],
    ['nav-p2p_users-add', '/p2p_users/add'],
    ['nav-p2p_users-add_trial', '/p2p_users/add_trial'],
    ['nav-p2p_users-connections', '/p2p_users/connections'],
    ['nav-p2p_migrate', '/p2p_migrate'],
    ['nav-p2p_migrate_users', '/p2p_migrate_users'],
    ['nav-logs', '/logs'],
    ['nav-reports', '/reports'],
    ['nav-dashboard', '/'],
  ],
};

/** Every console line of the page that reports a missing i18n key, with where it happened. */
function collectMissingKeys(page: Page, who: string): string[] {
  const missing: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes(MISSING_KEY)) missing.push(`${who} at ${pathOf(page)}: ${m.text()}`);
  });
  return missing;
}

/** Lets the page load what it shows (route chunk, queries) before the next click. */
async function settle(page: Page): Promise<void> {
  await page.locator('[data-testid="page-loader"]').waitFor({ state: 'detached' }).catch(() => undefined);
  await page.waitForTimeout(300);
}

async function clickTo(page: Page, testId: string, path: string): Promise<void> {
  await byTestId(page, testId).first().click();
  await waitForPath(page, path);
  await settle(page);
}

async function closeDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('[role="dialog"]').first().waitFor({ state: 'detached' }).catch(() => undefined);
  await page.waitForTimeout(200);
}

/** A reseller row action: an inline icon, or through the row menu. */
async function resellerAction(page: Page, id: number, action: string): Promise<void> {
  const item = byTestId(page, `reseller-${action}-${id}`);
  if (!(await item.isVisible())) await byTestId(page, `reseller-actions-${id}`).click();
  await item.click();
}

describe('texts, first-run messages and the line modals, as admin, master and reseller in both languages', () => {
  const s = useE2eSuite();
  const tokens = {} as Record<Role, string>;
  let reseller: Api;
  let resellerId: number;
  let resellerName: string;
  let masterName: string;
  let oneScreen: { package_name: string };
  const extendLines = {} as Record<Locale, Line>;
  let twoScreens: Line;
  let trialLine: Line;

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet();
    const pkg = await s.admin.createPackage({ bouquets: [String(bouquet.id)], package_name: uniqueName('Mensal ') });
    oneScreen = pkg;
    const pkg2 = await s.admin.createPackage({ bouquets: [String(bouquet.id)], max_connections: 2, package_name: uniqueName('Duas telas ') });
    const trialPkg = await s.admin.createPackage({ bouquets: [String(bouquet.id)], is_trial: 1, is_official: 0, trial_duration: 4, trial_duration_in: 'hours', package_name: uniqueName('Teste ') });
    const master = await s.admin.createAndSignIn({ type: 'master', credits: 100 });
    masterName = master.user.username;
    const r = await master.createReseller({ credits: 40 });
    resellerId = r.id;
    resellerName = r.username;
    reseller = await Api.signIn(s.server.baseUrl, r.username, r.password);
    for (const lang of LANGS) extendLines[lang] = await reseller.post<Line>('/users', { package_id: pkg.id, whatsapp: '11987654321' });
    twoScreens = await reseller.post<Line>('/users', { package_id: pkg2.id });
    trialLine = await reseller.post<Line>('/trial_users', { package_id: trialPkg.id });
    tokens.admin = s.admin.token;
    tokens.master = master.token;
    tokens.reseller = reseller.token;
  });

  /** Clicks through every menu page, the main modals and the profile page; returns the missing keys seen. */
  async function walk(role: Role, lang: Locale): Promise<string[]> {
    const page = await s.page({ locale: lang });
    const missing = collectMissingKeys(page, `${role} ${lang}`);
    await signInWithToken(page, tokens[role], '/');
    await byTestId(page, 'user-menu').waitFor();
    await settle(page);

    for (const [testId, path] of MENU[role]) await clickTo(page, testId, path);

    if (role === 'admin') {
      await clickTo(page, 'nav-packages', '/packages');
      await clickTo(page, 'package-create', '/packages/new');
      await clickTo(page, 'nav-packages', '/packages');
      // any package's form (on the shared server the first page may hold only other files' packages)
      await page.locator('[data-testid^="package-edit-"]').first().click();
      await waitForPath(page, /^\/packages\/\d+\/edit$/);
      await settle(page);
    }

    await clickTo(page, 'nav-users', '/users');
    const line = extendLines[lang];
    await rowWithText(page, line.username).waitFor();
    for (const action of ['renew', 'extend', 'screens', 'links', 'whatsapp']) {
      await lineAction(page, line.id, action);
      await page.locator('[role="dialog"]').first().waitFor();
      await page.waitForTimeout(300);
      await closeDialog(page);
    }
    await lineAction(page, line.id, 'edit');
    await waitForPath(page, `/users/${line.id}/edit`);
    await settle(page);

    if (role !== 'reseller') {
      await clickTo(page, 'nav-resellers', '/resellers');
      const row = rowWithText(page, resellerName);
      await row.waitFor();
      // seeded group names read in the page's language ('Resellers' in the data)
      await expect.poll(() => row.innerText(), POLL).toContain(tr(lang, 'groups.reseller'));
      await resellerAction(page, resellerId, 'credits');
      await page.locator('[role="dialog"]').first().waitFor();
      await closeDialog(page);
      await resellerAction(page, resellerId, 'view');
      await waitForPath(page, `/resellers/${resellerId}`);
      await settle(page);
      await clickTo(page, 'nav-resellers', '/resellers');
      await resellerAction(page, resellerId, 'domains');
      await waitForPath(page, `/resellers/${resellerId}/add_domains`);
      await settle(page);
      await clickTo(page, 'nav-resellers', '/resellers');
      await resellerAction(page, resellerId, 'edit');
      await waitForPath(page, `/resellers/${resellerId}/edit`);
      await settle(page);
    }

    await byTestId(page, 'user-menu').click();
    await clickTo(page, 'menu-security', '/profile/security');

    // an address that is no page: it says so, and its button leads home
    await page.goto('/no-such-page');
    await expect.poll(() => visibleText(byTestId(page, 'not-found')), POLL).toContain(tr(lang, 'errors.pageNotFound'));
    await byTestId(page, 'not-found').locator('a').click();
    await waitForPath(page, '/');
    await settle(page);
    return missing;
  }

  for (const role of ['admin', 'master', 'reseller'] as const) {
    for (const lang of LANGS) {
      test(`${role}, ${lang}: every page and main modal without a missing text`, async () => {
        expect(await walk(role, lang)).toEqual([]);
      });
    }
  }

  test('the extend toast says how many days, in both languages', async () => {
    for (const lang of LANGS) {
      const page = await s.page({ locale: lang });
      const missing = collectMissingKeys(page, `reseller ${lang}`);
      await signInWithToken(page, tokens.reseller, '/');
      await clickTo(page, 'nav-users', '/users');
      const line = extendLines[lang];
      await rowWithText(page, line.username).waitFor();
      await lineAction(page, line.id, 'extend');
      await byTestId(page, 'extend-days').fill('2');
      await byTestId(page, 'extend-submit').click();
      await toast(page, tr(lang, 'users.extend.success_other', { count: 2 }));
      expect(await page.locator('.mantine-Notification-root').allInnerTexts()).not.toContainEqual(expect.stringContaining('users.extend'));
      expect(missing).toEqual([]);
    }
  });

  test('a reseller sent away from an admin page is told why', async () => {
    const page = await s.page();
    await signInWithToken(page, tokens.reseller, '/packages');
    await waitForPath(page, '/');
    await toast(page, tr('pt-BR', 'errors.roleRedirect'));
  });

  test('the admin is told on the dashboard that no public domain is set; a master is not', async () => {
    const page = await s.page();
    await signInWithToken(page, tokens.admin, '/');
    await expect.poll(() => visibleText(byTestId(page, 'public-url-notice')), POLL).toContain('PUBLIC_URL');
    const asMaster = await s.page();
    // the notice is decided from the profile and the complements: once both answers are in and
    // the page has painted twice, a notice that would show is on the page
    const answers = ['/api/profile', '/api/datacomplements'].map((path) => asMaster.waitForResponse((r) => new URL(r.url()).pathname === path));
    await signInWithToken(asMaster, tokens.master, '/');
    await Promise.all(answers);
    await byTestId(asMaster, 'dashboard-cards').waitFor();
    await asMaster.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    expect(await byTestId(asMaster, 'public-url-notice').count()).toBe(0);
    expect(masterName).toBeTruthy();
  });

  test('screens: the preview never shows a total or a cost the rule refuses', async () => {
    const page = await s.page();
    await signInWithToken(page, tokens.reseller, '/');
    await clickTo(page, 'nav-users', '/users');

    // 1 screen, limit 1 (the default setting): nothing can change, nothing is previewed
    const one = extendLines['pt-BR'];
    await rowWithText(page, one.username).waitFor();
    await lineAction(page, one.id, 'screens');
    await byTestId(page, 'screens-at-limit').waitFor();
    expect(await byTestId(page, 'screens-amount').isDisabled()).toBe(true);
    expect(await visibleText(byTestId(page, 'screens-new'))).toBe('1');
    expect(await byTestId(page, 'screens-cost').count()).toBe(0);
    expect(await byTestId(page, 'screens-add').isDisabled()).toBe(true);
    await closeDialog(page);

    // 2 screens from its package, limit 1: adding is refused without a preview, removing one is allowed
    await lineAction(page, twoScreens.id, 'screens');
    const amount = byTestId(page, 'screens-amount');
    await amount.fill('1');
    await expect.poll(() => visibleText(byTestId(page, 'screens-new')), POLL).toBe('2');
    expect(await byTestId(page, 'screens-cost').count()).toBe(0);
    expect(await byTestId(page, 'screens-add').isDisabled()).toBe(true);
    await amount.fill('-1');
    await expect.poll(() => visibleText(byTestId(page, 'screens-new')), POLL).toBe('1');
    expect(await byTestId(page, 'screens-remove').isDisabled()).toBe(false);
    await byTestId(page, 'screens-remove').click();
    await toast(page, tr('pt-BR', 'users.screens.success'));
  });

  test("renew: the line's package is chosen; with none, the modal says what is missing", async () => {
    const page = await s.page();
    await signInWithToken(page, tokens.reseller, '/');
    await clickTo(page, 'nav-users', '/users');
    const line = extendLines['en-US'];
    await rowWithText(page, line.username).waitFor();
    await lineAction(page, line.id, 'renew');
    await expect.poll(() => byTestId(page, 'renew-package').inputValue(), POLL).toBe(oneScreen.package_name);
    await byTestId(page, 'renew-cost').waitFor();
    await closeDialog(page);

    // a trial line has a trial package, which renewals do not offer: nothing is chosen
    await rowWithText(page, trialLine.username).waitFor();
    await lineAction(page, trialLine.id, 'renew');
    expect(await byTestId(page, 'renew-package').inputValue()).toBe('');
    await byTestId(page, 'renew-submit').click();
    await expect.poll(() => visibleText(byTestId(page, 'renew-modal')), POLL).toContain(tr('pt-BR', 'users.renew.packageRequired'));
    expect(await byTestId(page, 'renew-submit').isVisible()).toBe(true);
  });
});
