import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { Api, byTestId, clickMenuEntry, type Line, lineAction, signInUi, type StreamPage, toast, tr, uniqueName, visibleText, useE2eSuite } from '../support/index.ts';

// Where links point: signed in once, the admin walks the menus at 1280 px and at 375 px,
// registers a streaming edge, chooses it as the default on /settings, and opens a line's links
// dialog: HLS (output=m3u8) comes first, every link is shown whole with its own label, and the
// playlist behind the first link names stream URLs on that edge while the link stays on the panel.

const POLL = { timeout: 15_000, interval: 200 };
const pt = (key: string, vars?: Record<string, string | number>) => tr('pt-BR', key, vars);
const LIVE = 'Default Edge Live';

/** A server's row (a table row at 1280 px, a card at 375 px). */
const serverRow = (page: Page, name: string) => page.locator('[data-testid^="server-row-"]', { hasText: name }).first();

/** Whether a server's row carries the "default" badge. */
const isDefault = async (page: Page, name: string) => (await serverRow(page, name).locator('[data-testid^="server-default-"]').count()) === 1;

const byMenu = (page: Page, testId: string, path: string) => clickMenuEntry(page, path, testId);

describe('the default edge and the links dialog, at 1280 px and at 375 px', () => {
  // its own database: the default edge is a global setting, which every other line's playlist would follow
  const s = useE2eSuite({ ownServer: true });
  let line: Line;
  let liveId: number;

  beforeAll(async () => {
    await s.admin.post('/admin/catalogue/import', { m3u: `#EXTM3U\n#EXTINF:-1 tvg-name="${LIVE}" group-title="Default Edge",${LIVE}\nhttp://origin.example/live/o/o/900.m3u8\n` });
    const live = (await s.admin.get<StreamPage>(`/admin/streams?search=${encodeURIComponent(LIVE)}`)).data[0]!;
    liveId = live.id;
    const bouquet = await s.admin.createBouquet(uniqueName('Default edge bq '));
    await s.admin.put(`/admin/bouquets/${bouquet.id}`, { bouquet_name: bouquet.bouquet_name, categories: [live.category_id] });
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Default edge '), bouquets: [String(bouquet.id)] });
    const resellerRow = await s.admin.createReseller({ credits: 5 });
    const reseller = await Api.signIn(s.server.baseUrl, resellerRow.username, resellerRow.password);
    line = await reseller.post<Line>('/users', { package_id: pkg.id });
  });

  /** /servers: registers an edge through its form (the key shows once). */
  async function registerEdge(page: Page, name: string, url: string): Promise<void> {
    await byMenu(page, 'nav-servers', '/servers');
    await byTestId(page, 'server-register').click();
    await byTestId(page, 'server-name').fill(name);
    await byTestId(page, 'server-url').fill(url);
    await byTestId(page, 'server-save').click();
    await byTestId(page, 'server-key').waitFor();
    await byTestId(page, 'server-key-done').click();
    await serverRow(page, name).waitFor();
  }

  /** /settings: chooses the edge as the default streaming server and saves. */
  async function chooseDefault(page: Page, name: string): Promise<void> {
    await byMenu(page, 'nav-settings', '/settings');
    const select = byTestId(page, 'setting-default_edge');
    await select.waitFor();
    await select.click();
    await page.getByRole('option', { name: new RegExp(`^${name} `) }).click();
    await byTestId(page, 'settings-save').click();
    await toast(page, pt('settings.saved'));
  }

  /** /users: the line's links dialog; checks order, labels and that each link shows whole. */
  async function checkLinks(page: Page, edge: string): Promise<void> {
    await byMenu(page, 'nav-users', '/users');
    await byTestId(page, `user-actions-${line.id}`).waitFor();
    await lineAction(page, line.id, 'links');
    const modal = byTestId(page, 'links-modal');
    await expect.poll(() => byTestId(modal, 'link-original-m3u8').inputValue(), POLL).toContain(`username=${line.username}`);
    const fields = modal.locator('[data-testid^="link-original-"]');
    expect(await fields.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual(['link-original-m3u8', 'link-original-hls', 'link-original-ssiptv']);
    const first = await fields.first().inputValue();
    expect(first).toMatch(/\/get\.php\?.*&output=m3u8$/);
    expect(first.startsWith(s.server.baseUrl)).toBe(true); // the link stays on the panel
    expect(await visibleText(modal)).toContain(pt('users.links.formats.m3u8'));
    const values = await fields.evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value));
    expect(new Set(values).size).toBe(3);
    expect(values.join(' ')).not.toContain('output=mpegts');
    // whole: no link is cut (no hidden overflow, no horizontal scroll), each label is on screen
    const cut = await fields.evaluateAll((els) =>
      els.filter((e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1).map((e) => e.getAttribute('data-testid')),
    );
    expect(cut).toEqual([]);
    for (const type of ['m3u8', 'hls', 'ssiptv']) await expect.poll(() => modal.getByText(pt(`users.links.formats.${type}`)).isVisible(), POLL).toBe(true);
    // the playlist behind the first link streams from the default edge
    const playlist = await (await fetch(first)).text();
    expect(playlist).toContain(`${edge}/live/${line.username}/${line.password}/${liveId}.m3u8`);
    await page.keyboard.press('Escape');
    await expect.poll(() => modal.count(), POLL).toBe(0);
  }

  test('register, choose as default, see HLS first and the links whole; desktop then phone', async () => {
    const page = await s.page({ viewport: { width: 1280, height: 900 } });
    await signInUi(page, s.server.adminUsername, s.server.adminPassword);

    const wide = 'https://edge-wide.example.com';
    await registerEdge(page, 'edge-wide', wide);
    await chooseDefault(page, 'edge-wide');
    await byMenu(page, 'nav-servers', '/servers');
    await expect.poll(() => isDefault(page, 'edge-wide'), POLL).toBe(true);
    await checkLinks(page, wide);

    await page.setViewportSize({ width: 375, height: 812 });
    const phone = 'https://edge-phone.example.com:8443';
    await registerEdge(page, 'edge-phone', phone);
    await chooseDefault(page, 'edge-phone');
    await byMenu(page, 'nav-servers', '/servers');
    await expect.poll(() => isDefault(page, 'edge-phone'), POLL).toBe(true);
    expect(await isDefault(page, 'edge-wide')).toBe(false);
    await checkLinks(page, phone);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
