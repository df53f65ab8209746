import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { edgeConf, freePort, NGINX, type Nginx, segment, startNginx, writeHls } from '../../server/test/edge/nginx.ts';
import { Api, byTestId, clickMenu, type Line, rowWithText, signInUi, type StreamPage, toast, tr, uniqueName, useE2eSuite, visibleText } from '../support/index.ts';

// Players and streaming edges in the browser, with a real nginx edge (Debian's package, docs/nginx-edge.conf): the
// admin imports a playlist, fills a bouquet and registers the edge (its key shown once); a line of
// that bouquet plays an HLS stream through nginx (the first link of its links dialog, with the edge
// chosen as the default streaming server on /settings), shows on the dashboard's online cards and on
// /users/connections, is disconnected from the page, and nginx refuses it once its kept answer runs out.

const POLL = { timeout: 15_000, interval: 200 };
const pt = (key: string, vars?: Record<string, string | number>) => tr('pt-BR', key, vars);

const LIVE = 'Edge Live';
const MOVIE = 'Edge Movie';
const SERIES = 'Edge Series S01E01';
const PLAYLIST = [
  '#EXTM3U',
  `#EXTINF:-1 tvg-id="edge.live" tvg-name="${LIVE}" group-title="Edge",${LIVE}`,
  'http://origin.example/live/o/o/700.m3u8',
  `#EXTINF:-1 tvg-name="${MOVIE}" group-title="Edge Films",${MOVIE}`,
  'http://origin.example/movie/o/o/701.mp4',
  `#EXTINF:-1 tvg-name="${SERIES}" group-title="Edge Shows",${SERIES}`,
  'http://origin.example/series/o/o/702.mkv',
  // an entry without its URL: skipped, with the reason in the summary
  '#EXTINF:-1 group-title="Edge",Broken entry',
  '',
].join('\n');

/** The import panel's file input (Mantine keeps the real <input type=file> hidden). */
async function uploadPlaylist(page: Page, file: string): Promise<void> {
  await byTestId(page, 'catalogue-import').locator('input[type="file"]').setInputFiles(file);
  await byTestId(page, 'import-submit').click();
}

/** Picks an option of a Mantine MultiSelect (typing `search` first when given). */
async function pickOption(page: Page, testId: string, option: string | RegExp, search?: string): Promise<void> {
  const input = byTestId(page, testId);
  await input.click();
  if (search) await input.fill(search);
  await page.getByRole('option', { name: option }).first().click();
  await page.keyboard.press('Escape');
}

describe.skipIf(!NGINX && !process.env.CI)('a line plays through a real nginx edge, shows online in the browser and is disconnected from it', () => {
  const s = useE2eSuite({ env: { TRUST_PROXY: 'loopback', DASHBOARD_CACHE_SECONDS: '0' } });
  let dir: string;
  let nginx: Nginx | undefined;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-e2e-edge-'));
  });
  afterAll(async () => {
    await nginx?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('import, bouquet, edge key, play, online, disconnect, refused; and the latest content', async () => {
    const edgePort = await freePort();
    const edge = `http://127.0.0.1:${edgePort}`;
    const bouquet = await s.admin.createBouquet(uniqueName('Edge bq '));
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Edge mensal '), bouquets: [String(bouquet.id)] });
    const resellerRow = await s.admin.createReseller({ credits: 5 });
    const reseller = await Api.signIn(s.server.baseUrl, resellerRow.username, resellerRow.password);

    const page = await s.page();
    await signInUi(page, s.server.adminUsername, s.server.adminPassword);
    // The dashboard's figures are reused for 5 s (web dashboard api.ts): step 5 comes back later than that.
    const dashboardStaleAt = Date.now() + 5_500;

    // 1. /catalogue: a malformed playlist is refused with a clear error and imports nothing ...
    await clickMenu(page, 'nav-catalogue', '/catalogue');
    const bad = path.join(dir, 'bad.m3u');
    fs.writeFileSync(bad, 'this is not a playlist\nhttp://origin.example/x.ts\n');
    await uploadPlaylist(page, bad);
    await expect.poll(() => visibleText(byTestId(page, 'import-error')), POLL).toContain('#EXTM3U');
    expect(await visibleText(byTestId(page, 'import-error'))).toContain(pt('catalogue.import.failed'));
    expect((await s.admin.get<StreamPage>('/admin/streams')).meta.total).toBe(0);

    // ... a good one gives its summary, and the list shows it (filtered by kind in the URL)
    const good = path.join(dir, 'good.m3u');
    fs.writeFileSync(good, PLAYLIST);
    await uploadPlaylist(page, good);
    await byTestId(page, 'import-summary').waitFor();
    expect(await visibleText(byTestId(page, 'import-count-added'))).toBe(pt('catalogue.import.summary.added_other', { n: 3 }));
    expect(await visibleText(byTestId(page, 'import-count-skipped'))).toContain(pt('catalogue.import.summary.skipped_one', { n: 1 }));
    expect(await visibleText(byTestId(page, 'import-skipped-list'))).toContain('no stream URL');
    await rowWithText(byTestId(page, 'catalogue-table'), LIVE).waitFor();
    await byTestId(page, 'catalogue-kind').click();
    await page.getByRole('option', { name: pt('catalogue.kinds.movie') }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('kind'), POLL).toBe('movie');
    await expect.poll(() => byTestId(page, 'catalogue-table').locator('tbody tr').count(), POLL).toBe(1);
    await rowWithText(byTestId(page, 'catalogue-table'), MOVIE).waitFor();
    const live = (await s.admin.get<StreamPage>(`/admin/streams?search=${encodeURIComponent(LIVE)}`)).data[0]!;

    // 2. /bouquets: the live category and the movie as a single stream
    await clickMenu(page, 'nav-bouquets', '/bouquets');
    await byTestId(page, `bouquet-contents-${bouquet.id}`).click();
    await byTestId(page, 'bouquet-contents').waitFor();
    await pickOption(page, 'bouquet-categories', new RegExp(`^${pt('catalogue.kinds.live')} · Edge \\(`));
    await pickOption(page, 'bouquet-streams', new RegExp(MOVIE), 'edge mov');
    await byTestId(page, 'bouquet-contents-save').click();
    await toast(page, pt('bouquets.contents.saved'));
    await expect.poll(() => visibleText(byTestId(page, `bouquet-categories-count-${bouquet.id}`)), POLL).toBe('1');
    expect(await visibleText(byTestId(page, `bouquet-streams-count-${bouquet.id}`))).toBe('1');

    // 3. /servers: register the edge; its key shows once
    await clickMenu(page, 'nav-servers', '/servers');
    await byTestId(page, 'server-register').click();
    await byTestId(page, 'server-name').fill('edge-e2e');
    await byTestId(page, 'server-url').fill(edge);
    await byTestId(page, 'server-save').click();
    const key = await visibleText(byTestId(page, 'server-key'));
    expect(key.length).toBeGreaterThanOrEqual(32);
    await byTestId(page, 'server-key-done').click();
    await rowWithText(byTestId(page, 'servers-table'), 'edge-e2e').waitFor();
    expect(await byTestId(page, 'server-key').count()).toBe(0);

    // ... and /settings: it is the default streaming server, so the playlists' streams point at it
    await clickMenu(page, 'nav-settings', '/settings');
    await byTestId(page, 'setting-default_edge').click();
    await page.getByRole('option', { name: /^edge-e2e / }).click();
    await byTestId(page, 'settings-save').click();
    await toast(page, pt('settings.saved'));

    // 4. a line of that bouquet: the first link its links dialog offers (HLS) plays through nginx,
    // which asks the panel with that key
    const line = await reseller.post<Line>('/users', { package_id: pkg.id });
    const hls = path.join(dir, 'hls');
    writeHls(hls, live.id);
    nginx = await startNginx(dir, edgePort, edgeConf(Number(new URL(s.server.baseUrl).port), edgePort, key, hls, { keepSeconds: 2 }));
    await clickMenu(page, 'nav-users', '/users');
    await byTestId(page, `user-actions-${line.id}`).click();
    await byTestId(byTestId(page, `user-actions-menu-${line.id}`), 'action-links').click();
    const firstField = byTestId(page, 'links-modal').locator('[data-testid^="link-original-"]').first();
    await expect.poll(() => firstField.inputValue(), POLL).toContain(`username=${line.username}`);
    const firstLink = await firstField.inputValue();
    expect(firstLink).toMatch(/&output=m3u8$/);
    await page.keyboard.press('Escape');
    const get = (url: string) => fetch(url, { headers: { 'user-agent': 'E2ePlayer/1.0' } });
    const m3u = await (await get(firstLink)).text();
    const streamUrl = m3u.split('\n').find((l) => l.startsWith('http'));
    expect(streamUrl).toBe(`${edge}/live/${line.username}/${line.password}/${live.id}.m3u8`);
    const playlist = await get(streamUrl!);
    expect(playlist.status, nginx.errorLog()).toBe(200);
    // the edge signs the segment URLs for this player (secure_link): the unsigned one is refused
    const first = (await playlist.text()).split('\n').find((l) => l.startsWith(`${live.id}/seg0.ts?`));
    expect(first).toMatch(/\?e=\d+&t=[\w-]{22}$/);
    expect((await get(new URL(first!.replace(/\?.*$/, ''), streamUrl!).href)).status).toBe(403);
    const seg0 = await get(new URL(first!, streamUrl!).href);
    expect(seg0.status).toBe(200);
    expect(Buffer.from(await seg0.arrayBuffer()).equals(segment(0))).toBe(true);

    // 5. the dashboard counts it online; its latest-content block loads the newest movies and series
    await new Promise((r) => setTimeout(r, Math.max(0, dashboardStaleAt - Date.now())));
    await clickMenu(page, 'nav-dashboard', '/');
    await expect.poll(() => visibleText(byTestId(page, 'card-conections_online-value')), POLL).toBe('1');
    expect(await visibleText(byTestId(page, 'card-users_online-value'))).toBe('1');
    // a failing answer shows the block's error alert; its retry loads the list
    const failing = '**/api/vods/latest?type=movie';
    await page.route(failing, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"statusCode":500,"code":"INTERNAL","message":"boom"}' }));
    await byTestId(page, 'latest-movies').click();
    await expect.poll(() => visibleText(byTestId(page, 'latest-error')), POLL).toContain(pt('latestContent.error'));
    await page.unroute(failing);
    await byTestId(page, 'latest-retry').click();
    await expect.poll(() => visibleText(byTestId(page, 'latest-list')), POLL).toContain(MOVIE);
    await byTestId(page, 'latest-series').click();
    await expect.poll(() => visibleText(byTestId(page, 'latest-list')), POLL).toContain(SERIES);
    await byTestId(page, 'latest-toggle').click();
    await expect.poll(() => byTestId(page, 'latest-list').count(), POLL).toBe(0);
    await byTestId(page, 'latest-toggle').click();
    await byTestId(page, 'latest-list').waitFor();

    // 6. /users/connections shows it; disconnect (confirmed) -> the next segment is refused
    await clickMenu(page, 'nav-users-connections', '/users/connections');
    const row = rowWithText(byTestId(page, 'connections-table'), line.username);
    await row.waitFor();
    // the username filter lives in the URL and survives a reload
    await byTestId(page, 'users-search').fill('nobody-like-this');
    await expect.poll(() => new URL(page.url()).searchParams.get('username'), POLL).toBe('nobody-like-this');
    await expect.poll(() => row.count(), POLL).toBe(0);
    await byTestId(page, 'users-search').fill(line.username);
    await expect.poll(() => new URL(page.url()).searchParams.get('username'), POLL).toBe(line.username);
    await page.reload();
    await row.waitFor();
    expect(await byTestId(page, 'users-search').inputValue()).toBe(line.username);
    expect(await visibleText(row)).toContain(LIVE);
    expect(await visibleText(row)).toContain(resellerRow.username);
    await row.locator('[data-testid^="connection-disconnect-"]').click();
    await byTestId(page, 'confirm-yes').click();
    await toast(page, pt('connections.disconnect.success'));
    await expect.poll(() => row.count(), POLL).toBe(0);
    // its playlist is refused once the edge's kept answer runs out (2 s in this test, 20 s as shipped)
    await expect.poll(async () => (await get(streamUrl!)).status, { timeout: 5_000, interval: 200 }).toBe(403);
    expect(nginx.errorLog()).not.toMatch(/\[(emerg|crit|alert)\]/);
  });
});
