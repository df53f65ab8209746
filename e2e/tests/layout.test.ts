import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { Api, byTestId, clickMenuEntry, E2E_ROOT, type Line, signInWithToken, uniqueName, useE2eSuite, waitForPath } from '../support/index.ts';

/** Full-page screenshots of every page, `<dir>/<width>/<page>.png`; CI keeps them (see .ci/run). */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR || path.join(E2E_ROOT, 'artifacts', 'screenshots');

const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
] as const;

interface Visit {
  name: string;
  /** Gets there: by the menu when the page has an entry, else by a button or the address. */
  go: (page: Page) => Promise<void>;
  /** Something the page shows once it is loaded. */
  ready: string;
  /** A list whose every row has an actions trigger. */
  actions?: boolean;
}

const byMenu = (page: Page, path: string) => clickMenuEntry(page, path);

const menu = (path: string) => (page: Page) => byMenu(page, path);
const address = (path: string) => async (page: Page) => {
  await page.goto(path);
};
const button = (testId: string, path: string | RegExp) => async (page: Page) => {
  await byTestId(page, testId).first().click();
  await waitForPath(page, path);
};

/** No request, loader or skeleton left, and no running transition (the burger menu closing). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForFunction(
    () =>
      !document.querySelector('.mantine-Skeleton-root, [data-testid="page-loader"]') &&
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Number.POSITIVE_INFINITY),
    undefined,
    { timeout: 10_000, polling: 100 },
  );
}

/** What does not fit: page wider than the screen, tables wider than their box, actions out of view. */
function layoutProblems(page: Page, expectActions: boolean): Promise<string[]> {
  return page.evaluate((expectActions) => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const doc = document.documentElement.scrollWidth;
    if (doc > width) problems.push(`page is ${doc} px wide in a ${width} px window (scrolls sideways)`);
    for (const box of Array.from(document.querySelectorAll('.panel-table'))) {
      if (box.scrollWidth > box.clientWidth + 1)
        problems.push(`table ${box.closest('[data-testid]')?.getAttribute('data-testid')} is ${box.scrollWidth} px wide in a ${box.clientWidth} px box (scrolls sideways)`);
    }
    const cells = Array.from(document.querySelectorAll('[data-row-actions]'));
    if (expectActions && cells.length === 0) problems.push('no row with an actions trigger');
    for (const cell of cells) {
      const trigger = cell.querySelector('button, a');
      const r = trigger?.getBoundingClientRect();
      if (!r || r.width === 0) problems.push('a row has no visible actions trigger');
      else if (r.left < 0 || r.right > width) problems.push(`a row's actions trigger is out of view (x ${Math.round(r.left)}..${Math.round(r.right)} of ${width})`);
    }
    return problems;
  }, expectActions);
}

async function check(page: Page, visit: Visit, file: string): Promise<string[]> {
  await visit.go(page);
  await page.locator(visit.ready).first().waitFor();
  await settle(page);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  return (await layoutProblems(page, !!visit.actions)).map((p) => `${visit.name}: ${p}`);
}

describe('every page fits a 375 px phone and a 1280 px screen', () => {
  const s = useE2eSuite();
  let master: Api;
  let reseller: Api;
  let masterId: number;
  let line: Line;

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Filmes e séries '));
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Mensal 2 telas '), bouquets: [String(bouquet.id)], max_connections: 2 });
    const m = await s.admin.createReseller({ type: 'master', credits: 60, username: uniqueName('master') });
    masterId = m.id;
    master = await Api.signIn(s.server.baseUrl, m.username, m.password);
    reseller = await master.createAndSignIn({ credits: 20, username: uniqueName('revenda') });
    await s.admin.put(`/resellers/${masterId}/add_domain`, { dns_reseller: 'https://tv.exemplo.com.br' });
    line = await master.post<Line>('/users', {
      package_id: pkg.id,
      whatsapp: '(11) 98765-4321',
      reseller_notes: 'Cliente João da Silva, sala e quarto, paga todo dia 10',
    });
    for (let i = 0; i < 3; i++) await master.post('/users', { package_id: pkg.id, reseller_notes: `Cliente ${i}` });
    await reseller.post('/users', { package_id: pkg.id, whatsapp: '(21) 99999-0000' });
    const entry = (name: string, group: string, url: string) => `#EXTINF:-1 tvg-name="${name}" group-title="${group}",${name}\n${url}`;
    const m3u = [
      '#EXTM3U',
      entry('Canal de Notícias 24 Horas HD', 'Notícias', 'http://origin.example/live/a/a/1.ts'),
      entry('Um Filme de Ação com um Título Bem Comprido (2024)', 'Filmes de Ação', 'http://origin.example/movie/a/a/2.mp4'),
      entry('Série Dramática S01E01', 'Séries', 'http://origin.example/series/a/a/3.mkv'),
    ].join('\n');
    await s.admin.post('/admin/catalogue/import', { m3u });
    await s.admin.post('/admin/servers', { name: 'edge-sp-1', url: 'https://edge-sp-1.streaming.exemplo.com.br' });
  });

  const adminVisits = (): Visit[] => [
    { name: 'dashboard', go: menu('/'), ready: '[data-testid="expirations"] [data-row-actions]', actions: true },
    { name: 'reports', go: menu('/reports'), ready: '[data-testid="report-chart-sales"] .recharts-wrapper' },
    { name: 'packages', go: menu('/packages'), ready: '[data-testid="packages-table"] [data-row-actions]', actions: true },
    { name: 'packages-new', go: button('package-create', '/packages/new'), ready: '[data-testid="package-name"]' },
    {
      name: 'package-edit',
      go: async (p) => {
        await byMenu(p, '/packages');
        await p.locator('[data-testid^="package-edit-"]').first().click();
        await waitForPath(p, /\/edit$/);
      },
      ready: '[data-testid="package-name"]',
    },
    { name: 'bouquets', go: menu('/bouquets'), ready: '[data-testid="bouquets-table"] [data-row-actions]', actions: true },
    { name: 'catalogue', go: menu('/catalogue'), ready: '[data-testid^="stream-row-"]' },
    { name: 'servers', go: menu('/servers'), ready: '[data-testid="servers-table"] [data-row-actions]', actions: true },
    { name: 'edit-news', go: menu('/edit_news'), ready: '[data-testid="news-title"]' },
    { name: 'resellers', go: menu('/resellers'), ready: '[data-testid="resellers-table"] [data-row-actions]', actions: true },
    { name: 'resellers-add', go: menu('/resellers/add'), ready: '[data-testid="reseller-form"]' },
    { name: 'reseller-detail', go: address(`/resellers/${masterId}`), ready: '[data-testid^="ledger-row-"]' },
    { name: 'reseller-edit', go: button('reseller-detail-edit', /\/edit$/), ready: '[data-testid="reseller-form"]' },
    { name: 'reseller-domains', go: address(`/resellers/${masterId}/add_domains`), ready: '[data-testid="domain-input"]' },
    { name: 'users', go: menu('/users'), ready: '[data-testid="users-table"] [data-row-actions]', actions: true },
    { name: 'users-add', go: menu('/users/add'), ready: '[data-testid="user-username"]' },
    { name: 'users-add-trial', go: menu('/users/add_trial'), ready: '[data-testid="user-back"]' },
    { name: 'user-edit', go: address(`/users/${line.id}/edit`), ready: '[data-testid="edit-username"]' },
    { name: 'users-migrate', go: menu('/users/migrate'), ready: '[data-testid="migrate-url"]' },
    { name: 'users-connections', go: menu('/users/connections'), ready: '[data-testid="connections-table"]' },
    { name: 'vods', go: menu('/vods'), ready: '[data-testid="vod-manual-open"]' },
    { name: 'list-vods-adm', go: menu('/list/vods/adm'), ready: '[data-testid="vod-bulk-remove"]' },
    { name: 'settings', go: menu('/settings'), ready: '[data-testid="settings-save"]' },
    { name: 'p2p-users', go: menu('/p2p_users'), ready: '[data-testid="p2p-table"]' },
    { name: 'p2p-users-add', go: menu('/p2p_users/add'), ready: '[data-testid="user-name"]' },
    { name: 'p2p-online', go: menu('/p2p_users/connections'), ready: '[data-testid="p2p-online-not-configured"]' },
    { name: 'p2p-migrate', go: menu('/p2p_migrate'), ready: '[data-testid="p2p-migrate-submit"]' },
    { name: 'p2p-migrate-users', go: menu('/p2p_migrate_users'), ready: '[data-testid="p2p-import-login-submit"]' },
    { name: 'logs', go: menu('/logs'), ready: '[data-testid^="log-row-"]' },
    { name: 'security', go: address('/profile/security'), ready: '[data-testid="twofactor-status"]' },
  ];
  const masterVisits: Visit[] = [
    { name: 'master-dashboard', go: menu('/'), ready: '[data-testid="expirations"] [data-row-actions]', actions: true },
    { name: 'master-reports', go: menu('/reports'), ready: '[data-testid^="top-row-"]' },
    { name: 'master-resellers', go: menu('/resellers'), ready: '[data-testid="resellers-table"] [data-row-actions]', actions: true },
    { name: 'master-users', go: menu('/users'), ready: '[data-testid="users-table"] [data-row-actions]', actions: true },
    { name: 'master-vods', go: menu('/vods'), ready: '[data-testid="vod-manual-open"]' },
    { name: 'master-logs', go: menu('/logs'), ready: '[data-testid^="log-row-"]' },
  ];
  const resellerVisits: Visit[] = [
    { name: 'reseller-dashboard', go: menu('/'), ready: '[data-testid="expirations"] [data-row-actions]', actions: true },
    { name: 'reseller-reports', go: menu('/reports'), ready: '[data-testid="report-chart-sales"] .recharts-wrapper' },
    { name: 'reseller-users', go: menu('/users'), ready: '[data-testid="users-table"] [data-row-actions]', actions: true },
    { name: 'reseller-users-add-trial', go: menu('/users/add_trial'), ready: '[data-testid="user-back"]' },
    { name: 'reseller-users-connections', go: menu('/users/connections'), ready: '[data-testid="connections-table"]' },
  ];

  for (const viewport of VIEWPORTS) {
    const shot = (name: string) => path.join(SCREENSHOT_DIR, String(viewport.width), `${name}.png`);

    test(`${viewport.width} px: sign-in, then every admin page by the menu`, async () => {
      const signedOut = await s.page({ viewport });
      const problems = await check(signedOut, { name: 'sign-in', go: address('/auth/sign-in'), ready: '[data-testid="signin-submit"]' }, shot('sign-in'));

      const page = await s.page({ viewport });
      await signInWithToken(page, s.admin.token, '/');
      await byTestId(page, 'user-menu').waitFor();
      for (const visit of adminVisits()) problems.push(...(await check(page, visit, shot(visit.name))));
      expect(problems).toEqual([]);
    });

    test(`${viewport.width} px: a master's and a reseller's pages`, async () => {
      const problems: string[] = [];
      for (const [api, visits] of [
        [master, masterVisits],
        [reseller, resellerVisits],
      ] as const) {
        const page = await s.page({ viewport });
        await signInWithToken(page, api.token, '/');
        await byTestId(page, 'user-menu').waitFor();
        for (const visit of visits) problems.push(...(await check(page, visit, shot(visit.name))));
      }
      expect(problems).toEqual([]);
    });
  }

  test('1280 px with the sidebar open: /users shows expiry, screens, status, system and the actions of every row', async () => {
    const page = await s.page({ viewport: { width: 1280, height: 800 } });
    await signInWithToken(page, s.admin.token, '/');
    await byMenu(page, '/users');
    await byTestId(page, `user-system-${line.id}`).waitFor();
    await settle(page);
    expect(await byTestId(page, 'nav-users').isVisible()).toBe(true);
    for (const id of ['user-actions', 'user-expiry', 'user-screens', 'user-status', 'user-system', 'user-username']) {
      const box = await byTestId(page, `${id}-${line.id}`).boundingBox();
      expect(box, id).not.toBeNull();
      expect(box && box.x >= 240 && box.x + box.width <= 1280, `${id} at x ${box?.x}..${(box?.x ?? 0) + (box?.width ?? 0)}`).toBe(true);
    }
  });

  test('375 px: /users rows are cards whose menu opens the line actions, sorted from a select', async () => {
    const page = await s.page({ viewport: { width: 375, height: 812 } });
    await signInWithToken(page, master.token, '/users');
    const card = byTestId(page, `user-row-${line.id}`);
    await card.waitFor();
    expect(await page.locator('table').count()).toBe(0);
    expect(await byTestId(card, `user-system-${line.id}`).isVisible()).toBe(true);
    await byTestId(card, `user-actions-${line.id}`).click();
    await byTestId(byTestId(page, `user-actions-menu-${line.id}`), 'action-renew').waitFor();
    await page.keyboard.press('Escape');

    await byTestId(page, 'table-sort').click();
    await page.getByRole('option', { name: /↑/ }).first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('order_by')).toMatch(/,asc$/);
  });
});
