import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AxeViolation, describeViolations, headingOnes, IMPACTS, type Impact, runAxe, settle } from '../support/axe.ts';
import { type Api, byTestId, E2E_ROOT, type Line, lineAction, type Reseller, signInWithToken, uniqueName, useE2eSuite } from '../support/index.ts';

/** A page or an open dialog, checked by axe-core. `open` runs after the page loaded; `opened` then shows (default: a dialog or menu). */
interface Check {
  name: string;
  path: string;
  open?: (page: Page) => Promise<void>;
  opened?: string;
}

const BLOCKING: readonly Impact[] = ['serious', 'critical'];
/** summary.txt (counts by impact and rule) and violations.txt (every finding, moderate and minor too); gitignored. */
const REPORT_DIR = process.env.AXE_REPORT_DIR ?? path.join(E2E_ROOT, 'artifacts', 'axe');

/** Every state checked in this file, for the summary printed at the end. */
const checked: { role: string; name: string; violations: AxeViolation[] }[] = [];

/** Opens a line's row menu on /users and clicks one of its actions. */
const openLineAction = (lineId: number, action: string) => (page: Page) => lineAction(page, lineId, action);

/** Clicks a reseller row action (inline icon, or through the row menu). */
const resellerAction = (id: number, action: string) => async (page: Page) => {
  const item = byTestId(page, `reseller-${action}-${id}`);
  if (!(await item.isVisible())) await byTestId(page, `reseller-actions-${id}`).click();
  await item.click();
};

const click = (testId: string) => async (page: Page) => {
  await byTestId(page, testId).first().click();
};

/**
 * Loads each page (and opens its dialog), runs axe-core and checks there is exactly one visible h1.
 * Returns one line per serious/critical node and per h1 problem; prints nothing itself.
 */
async function audit(page: Page, role: string, checks: Check[]): Promise<string[]> {
  const problems: string[] = [];
  for (const c of checks) {
    await page.goto(c.path);
    await page.locator('#root > :not(style)').first().waitFor();
    if (c.open) {
      await settle(page);
      await c.open(page);
      await page.locator(c.opened ?? '[role="dialog"], [role="menu"]').last().waitFor();
    }
    const state = `${role} ${c.name}`;
    const violations = await runAxe(page);
    checked.push({ role, name: c.name, violations });
    problems.push(...describeViolations(state, violations.filter((v) => BLOCKING.includes(v.impact))));
    if (!c.open) {
      const h1 = await headingOnes(page);
      if (h1.length !== 1) problems.push(`[${state}] expected one visible h1, found ${h1.length}: ${JSON.stringify(h1)}`);
    }
  }
  return problems;
}

function summary(): string {
  const byImpact = Object.fromEntries(IMPACTS.map((i) => [i, 0])) as Record<Impact, number>;
  const rules = new Map<string, number>();
  for (const c of checked)
    for (const v of c.violations) {
      byImpact[v.impact] += v.nodes.length;
      rules.set(`${v.id} (${v.impact})`, (rules.get(`${v.id} (${v.impact})`) ?? 0) + v.nodes.length);
    }
  const lines = [
    `axe-core ${checked.length} states checked (pages and open dialogs, pt-BR, 1280 px and 375 px) — failing nodes by impact: ${IMPACTS.map((i) => `${i} ${byImpact[i]}`).join(', ')}`,
    ...[...rules].map(([rule, n]) => `  ${rule}: ${n} node(s)`),
  ];
  return lines.join('\n');
}

describe('accessibility: axe-core on every page, as every role, with the main dialogs open', () => {
  const s = useE2eSuite();
  let master: Api;
  let reseller: Api;
  let masterRow: Reseller;
  let resellerRow: Reseller;
  let line: Line;
  let packageId: number;
  let bouquetId: number;

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    bouquetId = bouquet.id;
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    packageId = pkg.id;
    // a catalogue and an edge, so their pages show rows
    const entry = (name: string, group: string, url: string) => `#EXTINF:-1 tvg-name="${name}" group-title="${group}",${name}\n${url}`;
    const m3u = ['#EXTM3U', entry('Canal Um', 'Notícias', 'http://origin.example/live/a/a/1.ts'), entry('Filme Um', 'Ação', 'http://origin.example/movie/a/a/2.mp4')].join('\n');
    await s.admin.post('/admin/catalogue/import', { m3u });
    await s.admin.post('/admin/servers', { name: 'edge-1', url: 'https://edge1.example.com' });
    masterRow = await s.admin.createReseller({ type: 'master', credits: 200 });
    master = await s.admin.createAndSignIn({ type: 'master', credits: 200 });
    resellerRow = await master.createReseller({ type: 'reseller', credits: 50 });
    reseller = await master.createAndSignIn({ type: 'reseller', credits: 50 });
    line = await reseller.post<Line>('/users', { package_id: pkg.id, whatsapp: '(11) 98765-4321' });
    await master.post<Line>('/users', { package_id: pkg.id });
  });

  afterAll(() => {
    if (checked.length === 0) return;
    const text = summary();
    console.log(text);
    fs.mkdirSync(REPORT_DIR, { recursive: true });
    fs.writeFileSync(path.join(REPORT_DIR, 'summary.txt'), `${text}\n`);
    const details = checked.flatMap((c) => describeViolations(`${c.role} ${c.name}`, c.violations));
    fs.writeFileSync(path.join(REPORT_DIR, 'violations.txt'), `${details.join('\n')}\n`);
  });

  test('the light pages: sign-in and the customer page signed out', async () => {
    const pages = [
      { name: 'sign-in', path: '/auth/sign-in' },
      { name: 'customer sign-in', path: '/minha-conta' },
    ];
    const page = await s.page();
    const problems = await audit(page, 'anonymous', pages);
    const phone = await s.page({ viewport: { width: 375, height: 740 } });
    problems.push(...(await audit(phone, 'anonymous 375px', pages)));
    expect(problems, problems.join('\n')).toEqual([]);
  });

  test('admin: every page and the 404 page', async () => {
    const page = await s.page();
    await signInWithToken(page, s.admin.token, '/');
    const m = masterRow.id;
    const problems = await audit(page, 'admin', [
      { name: 'dashboard', path: '/' },
      { name: 'reports', path: '/reports' },
      // a custom period: the date-range input, bars by week
      { name: 'reports custom period', path: '/reports?period=custom&from=2025-01-01&to=2025-03-31' },
      { name: 'users', path: '/users' },
      { name: 'users/add', path: '/users/add' },
      { name: 'users/add_trial', path: '/users/add_trial' },
      { name: 'user edit', path: `/users/${line.id}/edit` },
      { name: 'resellers', path: '/resellers' },
      { name: 'resellers/add', path: '/resellers/add' },
      { name: 'reseller detail', path: `/resellers/${m}` },
      { name: 'reseller edit', path: `/resellers/${m}/edit` },
      { name: 'reseller domains', path: `/resellers/${m}/add_domains` },
      { name: 'packages', path: '/packages' },
      { name: 'packages/new', path: '/packages/new' },
      { name: 'package edit', path: `/packages/${packageId}/edit` },
      { name: 'bouquets', path: '/bouquets' },
      { name: 'catalogue', path: '/catalogue' },
      { name: 'servers', path: '/servers' },
      { name: 'users/connections', path: '/users/connections' },
      { name: 'edit_news', path: '/edit_news' },
      { name: 'users/migrate', path: '/users/migrate' },
      { name: 'vods', path: '/vods' },
      { name: 'list/vods/adm', path: '/list/vods/adm' },
      { name: 'settings', path: '/settings' },
      { name: 'p2p_users', path: '/p2p_users' },
      { name: 'p2p_users/add', path: '/p2p_users/add' },
      { name: 'p2p_users/add_trial', path: '/p2p_users/add_trial' },
      { name: 'p2p_users/connections', path: '/p2p_users/connections' },
      { name: 'p2p_migrate', path: '/p2p_migrate' },
      { name: 'p2p_migrate_users', path: '/p2p_migrate_users' },
      { name: 'logs', path: '/logs' },
      { name: 'profile/security', path: '/profile/security' },
      { name: '404', path: '/no-such-page' },
    ]);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  test('admin: dialogs, menus and popovers', async () => {
    const page = await s.page();
    await signInWithToken(page, s.admin.token, '/');
    const problems = await audit(page, 'admin', [
      { name: 'user menu', path: '/', open: click('user-menu') },
      { name: 'users filters', path: '/users', open: click('users-filters-toggle') },
      { name: 'line row menu', path: '/users', open: click(`user-actions-${line.id}`) },
      { name: 'renew modal', path: '/users', open: openLineAction(line.id, 'renew') },
      { name: 'extend modal', path: '/users', open: openLineAction(line.id, 'extend') },
      { name: 'screens modal', path: '/users', open: openLineAction(line.id, 'screens') },
      { name: 'links modal', path: '/users', open: openLineAction(line.id, 'links') },
      { name: 'whatsapp modal', path: '/users', open: openLineAction(line.id, 'whatsapp') },
      { name: 'block confirm', path: '/users', open: openLineAction(line.id, 'block') },
      { name: 'lazy player modal', path: '/users', open: openLineAction(line.id, 'lazy') },
      // no catalogue search configured here: the page offers a title typed by hand
      { name: 'content request by name modal', path: '/vods', open: click('vod-manual-open') },
      { name: 'credit modal', path: '/resellers', open: resellerAction(masterRow.id, 'credits') },
      { name: 'reseller block confirm', path: '/resellers', open: resellerAction(masterRow.id, 'block') },
      { name: 'deactivate modal', path: '/resellers', open: resellerAction(masterRow.id, 'deactivate') },
      { name: 'resellers filters', path: '/resellers', open: click('reseller-filter-button') },
      { name: 'bouquet modal', path: '/bouquets', open: click('bouquet-create') },
      { name: 'bouquet contents modal', path: '/bouquets', open: click(`bouquet-contents-${bouquetId}`), opened: '[data-testid="bouquet-contents"]' },
      { name: 'server register modal', path: '/servers', open: click('server-register') },
      { name: 'connections filters', path: '/users/connections', open: click('users-filters-toggle') },
      { name: 'dashboard latest content', path: '/', open: click('latest-movies'), opened: '[data-testid="latest-list"] table' },
    ]);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  test('master: the pages of a master and the credit modal', async () => {
    const page = await s.page();
    await signInWithToken(page, master.token, '/');
    const r = resellerRow.id;
    const problems = await audit(page, 'master', [
      { name: 'dashboard', path: '/' },
      { name: 'reports', path: '/reports' },
      { name: 'users', path: '/users' },
      { name: 'users/add', path: '/users/add' },
      { name: 'resellers', path: '/resellers' },
      { name: 'resellers/add', path: '/resellers/add' },
      { name: 'reseller detail', path: `/resellers/${r}` },
      { name: 'logs', path: '/logs' },
      { name: 'users/connections', path: '/users/connections' },
      { name: 'credit modal', path: '/resellers', open: resellerAction(r, 'credits') },
    ]);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  test('phone (375 px): the lists as cards, the menu drawer and a line dialog', async () => {
    const page = await s.page({ viewport: { width: 375, height: 740 } });
    await signInWithToken(page, s.admin.token, '/');
    const problems = await audit(page, 'admin 375px', [
      { name: 'dashboard', path: '/' },
      { name: 'reports', path: '/reports' },
      { name: 'users', path: '/users' },
      { name: 'resellers', path: '/resellers' },
      { name: 'packages', path: '/packages' },
      { name: 'bouquets', path: '/bouquets' },
      { name: 'catalogue', path: '/catalogue' },
      { name: 'servers', path: '/servers' },
      { name: 'users/connections', path: '/users/connections' },
      { name: 'logs', path: '/logs' },
      { name: 'users/migrate', path: '/users/migrate' },
      { name: 'vods', path: '/vods' },
      { name: 'list/vods/adm', path: '/list/vods/adm' },
      { name: 'settings', path: '/settings' },
      { name: 'menu drawer', path: '/', open: click('nav-burger'), opened: 'nav a[data-testid="nav-users"]' },
      { name: 'renew modal', path: '/users', open: openLineAction(line.id, 'renew') },
    ]);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  test('reseller: the pages of a plain reseller and a line dialog', async () => {
    const page = await s.page();
    await signInWithToken(page, reseller.token, '/');
    const problems = await audit(page, 'reseller', [
      { name: 'dashboard', path: '/' },
      { name: 'reports', path: '/reports' },
      { name: 'users', path: '/users' },
      { name: 'users/add', path: '/users/add' },
      { name: 'users/add_trial', path: '/users/add_trial' },
      { name: 'user edit', path: `/users/${line.id}/edit` },
      { name: 'logs', path: '/logs' },
      { name: 'users/connections', path: '/users/connections' },
      { name: 'profile/security', path: '/profile/security' },
      { name: 'renew modal', path: '/users', open: openLineAction(line.id, 'renew') },
    ]);
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
