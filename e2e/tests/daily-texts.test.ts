import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { Api, byTestId, clickMenuEntry, type Line, lineAction, signInWithToken, toast, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

// What a reseller meets every day, walked by the menus at a phone's and a desktop's
// width: empty lists, dates, the renew preview, bouquet kinds, the credits badge and the toasts,
// the screen limit and the content requests. Each role signs in once and changes width in place.

const POLL = { timeout: 10_000, interval: 100 };
const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
] as const;
const pt = (key: string, vars: Record<string, string | number> = {}) => tr('pt-BR', key, vars);
/** dd/mm/yyyy in the browser's time zone (newPage uses America/Sao_Paulo). */
const ptDate = (epochSeconds: number) => new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', year: 'numeric' }).format(epochSeconds * 1000);

/** One calendar month later, in UTC, the day clamped to the month's last (the server's rule). */
function plusOneMonth(epochSeconds: number): number {
  const d = new Date(epochSeconds * 1000);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + 1);
  d.setUTCDate(Math.min(day, new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()));
  return Math.floor(d.getTime() / 1000);
}

const byMenu = (page: Page, path: string) => clickMenuEntry(page, path);

/** The menu entries a role sees (the burger opened and closed again on phones). */
async function menuEntries(page: Page): Promise<string[]> {
  const burger = byTestId(page, 'nav-burger');
  const phone = await burger.isVisible();
  if (phone) await burger.click();
  await byTestId(page, 'nav-dashboard').first().waitFor();
  const ids = await page.locator('nav [data-testid^="nav-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
  if (phone) await burger.click();
  return ids;
}

async function closeDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('[role="dialog"]').first().waitFor({ state: 'detached' });
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** An empty list shows its sentence and no pager ("Página 0 de 0 · 0 registro" is gone). */
async function expectEmptyState(page: Page, scope: Locator, sentence: string): Promise<void> {
  await expect.poll(() => scope.getByText(sentence).first().isVisible(), POLL).toBe(true);
  await expect.poll(() => byTestId(page, 'pager-summary').allInnerTexts(), POLL).toEqual([]);
  expect(await page.getByText(pt('pager.pageOf', { page: 0, pages: 0 })).count()).toBe(0);
}

describe('what a reseller meets every day, at 375 and 1280 px', () => {
  const s = useE2eSuite();
  let master: Api;
  let reseller: Api;
  let resellerId: number;
  let masterLine: Line;
  let resellerLine: Line;
  let bouquetId: number;
  let m3u: string;

  beforeAll(async () => {
    // a catalogue with the three kinds, all in one bouquet
    const entry = (name: string, group: string, url: string) => `#EXTINF:-1 tvg-name="${name}" group-title="${group}",${name}\n${url}`;
    const tag = uniqueName('k');
    m3u = [
      '#EXTM3U',
      entry('Canal 1', `Notícias ${tag}`, `http://origin.example/live/a/a/${tag}1.ts`),
      entry('Filme 1', `Ação ${tag}`, `http://origin.example/movie/a/a/${tag}2.mp4`),
      entry('Série 1 S01E01', `Drama ${tag}`, `http://origin.example/series/a/a/${tag}3.mkv`),
    ].join('\n');
    await s.admin.post('/admin/catalogue/import', { m3u });
    const categories = (await s.admin.get<{ data: { id: number; name: string }[] }>('/admin/categories')).data.filter((c) => c.name.endsWith(tag));
    expect(categories).toHaveLength(3);
    const bouquet = await s.admin.createBouquet(uniqueName('Tudo '));
    bouquetId = bouquet.id;
    await s.admin.put(`/admin/bouquets/${bouquet.id}`, { bouquet_name: bouquet.bouquet_name, categories: categories.map((c) => c.id), streams: [] });
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });

    master = await s.admin.createAndSignIn({ type: 'master', credits: 50 });
    const r = await master.createReseller({ credits: 20, username: uniqueName('revenda') });
    resellerId = r.id;
    reseller = await Api.signIn(s.server.baseUrl, r.username, r.password); // sets its last sign-in
    masterLine = await master.post<Line>('/users', { package_id: pkg.id });
    resellerLine = await reseller.post<Line>('/users', { package_id: pkg.id });
  });

  test('reseller: no content requests to see; the screen limit says who changes it', async () => {
    const page = await s.page();
    await signInWithToken(page, reseller.token, '/');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await byTestId(page, 'user-menu').waitFor();
      const entries = await menuEntries(page);
      expect(entries).toContain('nav-users');
      expect(entries, `${viewport.width} px`).not.toContain('nav-vods');
      expect(await visibleText(byTestId(page, 'topbar-credits'))).toBe('19');

      await byMenu(page, '/users');
      await lineAction(page, resellerLine.id, 'screens');
      await byTestId(page, 'screens-at-limit').waitFor();
      const note = await visibleText(byTestId(page, 'screens-limit-note'));
      expect(note).toContain(pt('users.screens.limitNote_one', { count: 1 }));
      expect(note).toContain(pt('users.screens.limitChangeOthers'));
      expect(await byTestId(page, 'screens-limit-settings').count()).toBe(0);
      await closeDialog(page);
    }
    // a bookmark to the page: sent home, told why
    await page.goto('/vods');
    await waitForPath(page, '/');
    await toast(page, pt('errors.roleRedirect'));
  });

  test('master: content requests by name, empty lists, dates, renew old → new, the toast clear of the badge', async () => {
    const page = await s.page();
    await signInWithToken(page, master.token, '/');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await byTestId(page, 'user-menu').waitFor();
      const where = `${viewport.width} px`;

      // content requests: the search is off (no catalogue here), said on opening; a title by name still goes
      await byMenu(page, '/vods');
      await expect.poll(() => visibleText(byTestId(page, 'vod-search-off')), POLL).toContain(pt('vods.search.offTitle'));
      expect(await visibleText(byTestId(page, 'vod-search-off'))).not.toMatch(/TMDB|API_KEY/);
      expect(await byTestId(page, 'vod-search-open').count()).toBe(0);
      const title = uniqueName(`Filme pedido ${viewport.width} `);
      await byTestId(page, 'vod-manual-open').click();
      await byTestId(page, 'vod-manual-submit').click();
      await expect.poll(() => visibleText(byTestId(page, 'vod-manual-modal')), POLL).toContain(pt('vods.manual.titleRequired'));
      await byTestId(page, 'vod-manual-title').fill(title);
      await byTestId(page, 'vod-manual-year').fill('2024');
      await byTestId(page, 'vod-manual-submit').click();
      await toast(page, pt('vods.requested'));
      await expect.poll(() => visibleText(byTestId(page, 'vods-table')), POLL).toContain(title);
      // an empty list: a sentence, no "Página 0 de 0"
      await byTestId(page, 'vods-filter').fill('nada-com-esse-nome');
      await expectEmptyState(page, page.locator('main'), pt('vods.empty'));

      // resellers: the last sign-in as dd/mm/yyyy hh:mm, like every other date
      await byMenu(page, '/resellers');
      const row = byTestId(page, `reseller-row-${resellerId}`);
      await row.waitFor();
      const rowText = await row.innerText();
      expect(rowText, where).toMatch(/\b\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\b/);
      expect(rowText, where).not.toMatch(/\b\d{2}-\d{2}-\d{4}\b/);
      await byTestId(page, 'reseller-filter-username').fill('ninguem-assim');
      await expectEmptyState(page, page.locator('main'), pt('resellers.empty'));

      // renew: the current expiry → the new one, then the spend and its toast, clear of the badge
      const line = await master.get<Line>(`/users/${masterLine.id}`);
      const before = Number(await visibleText(byTestId(page, 'topbar-credits')));
      await byMenu(page, '/users');
      await lineAction(page, line.id, 'renew');
      await expect.poll(() => visibleText(byTestId(page, 'renew-new-exp')), POLL).toContain(ptDate(plusOneMonth(line.exp_date)));
      expect(await visibleText(byTestId(page, 'renew-old-exp'))).toContain(ptDate(line.exp_date));
      expect(await visibleText(byTestId(page, 'renew-expiry'))).toContain('→');
      await byTestId(page, 'renew-submit').click();
      const note = page.locator('.mantine-Notification-root', { hasText: pt('users.renew.success') }).first();
      await note.waitFor();
      await expect.poll(() => visibleText(byTestId(page, 'topbar-credits')), POLL).toBe(String(before - 1));
      await page.waitForTimeout(400); // the toast's entrance
      const [toastBox, badgeBox] = [await note.boundingBox(), await byTestId(page, 'topbar-credits').boundingBox()];
      expect(toastBox && badgeBox, where).toBeTruthy();
      if (toastBox && badgeBox) expect(overlaps(toastBox, badgeBox), `${where}: toast ${JSON.stringify(toastBox)} badge ${JSON.stringify(badgeBox)}`).toBe(false);

      // screens: the limit, and that the admin changes it in the settings
      await lineAction(page, line.id, 'screens');
      const limit = await visibleText(byTestId(page, 'screens-limit-note'));
      expect(limit).toContain(pt('users.screens.limitNote_one', { count: 1 }));
      expect(limit).toContain(pt('users.screens.limitChangeOthers'));
      await closeDialog(page);
    }
  });

  test('admin: no credits badge, bouquet categories by kind, the import in words, the screen limit links to the settings', async () => {
    const page = await s.page();
    await signInWithToken(page, s.admin.token, '/');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      // the profile is in (its username in the user menu), so a credits badge would show by now
      await expect.poll(() => byTestId(page, 'user-menu').textContent(), POLL).toContain(s.server.adminUsername);
      expect(await byTestId(page, 'topbar-credits').count()).toBe(0);

      await byMenu(page, '/bouquets');
      await byTestId(page, `bouquet-contents-${bouquetId}`).click();
      await byTestId(page, 'bouquet-contents').waitFor();
      const pills = await page.locator('[data-testid="bouquet-contents"] .mantine-Pill-label').allInnerTexts();
      for (const kind of ['live', 'movie', 'series']) expect(pills.some((p) => p.startsWith(`${pt(`catalogue.kinds.${kind}`)} · `)), `${kind} in ${pills.join(', ')}`).toBe(true);
      await closeDialog(page);

      // the action log tells an import in words (the same playlist again: nothing new)
      await s.admin.post('/admin/catalogue/import', { m3u });
      await byMenu(page, '/logs');
      const words = `${pt('logs.value.import.file')}: ${pt('catalogue.import.summary.added_zero', { n: 0 })}, ${pt('catalogue.import.summary.updated_zero', { n: 0 })}, ${pt('catalogue.import.summary.unchanged_other', { n: 3 })}`;
      await expect.poll(() => visibleText(page.locator('main')), POLL).toContain(words);
      expect(await visibleText(page.locator('main'))).not.toContain('skipped');

      await byMenu(page, '/list/vods/adm');
      await expect.poll(() => visibleText(page.locator('main')), POLL).toContain('Filme pedido');

      await byMenu(page, '/users');
      await lineAction(page, masterLine.id, 'screens');
      expect(await visibleText(byTestId(page, 'screens-limit-note'))).toContain(pt('users.screens.limitNote_one', { count: 1 }));
      expect(await visibleText(byTestId(page, 'screens-limit-settings'))).toBe(pt('users.screens.limitChangeAdmin'));
      await byTestId(page, 'screens-limit-settings').click();
      await waitForPath(page, '/settings');
      await byTestId(page, 'settings-save').waitFor();
    }
  });
});
