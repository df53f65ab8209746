import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { formFields, type Standin } from '../../server/test/standins/http-standin.ts';
import { startLazyPlayer } from '../../server/test/standins/lazy-player.ts';
import { startTmdb, TMDB_KEY } from '../../server/test/standins/tmdb.ts';
import { startXtreamProvider } from '../../server/test/standins/xtream-provider.ts';
import { Api, byTestId, DEFAULT_PASSWORD, type Line, type LinePage, lineAction, type Package, rowWithText, signInUi, toast, tr, uniqueName, useE2eSuite, visibleText, waitForPath, builtAppLeaks } from '../support/index.ts';

// The outside integrations against their stand-ins (real HTTP servers on 127.0.0.1, started here and
// given to the server through its environment): migrate a line, Lazy Player, content requests, links.

const POLL = { timeout: 10_000, interval: 100 };
const DAY = 86_400;
const pt = (key: string, vars?: Record<string, string | number>) => tr('pt-BR', key, vars);

const env: Record<string, string> = {};
let tmdb: Standin;
let lazy: Standin;
let provider: Awaited<ReturnType<typeof startXtreamProvider>>;

async function clickMenu(page: Page, testId: string, pathname: string): Promise<void> {
  await byTestId(page, testId).first().click();
  await waitForPath(page, pathname);
}

async function pickOption(page: Page, selectTestId: string, label: string | RegExp): Promise<void> {
  await byTestId(page, selectTestId).click();
  await page.getByRole('option', { name: label }).first().click();
}

describe('outside integrations in the browser', () => {
  beforeAll(async () => {
    [tmdb, lazy, provider] = await Promise.all([startTmdb(), startLazyPlayer(), startXtreamProvider()]);
    Object.assign(env, {
      TMDB_API_URL: `${tmdb.url}/3`,
      TMDB_API_KEY: TMDB_KEY,
      LAZY_PLAYER_URL: lazy.url,
      OUTBOUND_ALLOW_NETWORKS: '127.0.0.1/32',
    });
    return async () => {
      await Promise.all([tmdb?.close(), lazy?.close(), provider?.close()]);
    };
  });
  describe('against the real server', () => {
  const s = useE2eSuite({ env });
  describe('pages', () => {
  let reseller: Api & { username: string };
  let master: Api & { username: string };
  let adult: Package;
  let noAdult: Package;

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    adult = await s.admin.createPackage({ package_name: uniqueName('Migra adulto '), bouquets: [String(bouquet.id)] });
    noAdult = await s.admin.createPackage({ package_name: uniqueName('Migra livre '), bouquets: [String(bouquet.id)], official_credits: 2 });
    await s.admin.put('/admin/settings', { migration_package_adult: String(adult.id), migration_package_no_adult: String(noAdult.id), lazy_player_monthly_credits: '2' });
    const r = await s.admin.createReseller({ credits: 20 });
    reseller = Object.assign(await Api.signIn(s.server.baseUrl, r.username, r.password), { username: r.username });
    const m = await s.admin.createReseller({ type: 'master', credits: 5 });
    master = Object.assign(await Api.signIn(s.server.baseUrl, m.username, m.password), { username: m.username });
  });

  test('a reseller migrates a line from another provider, then activates its Lazy Player', async () => {
    const src = { username: uniqueName('src'), password: 'srcPw123', exp_date: Math.floor(Date.now() / 1000) + 20 * DAY, created_at: Math.floor(Date.now() / 1000) - 60 * DAY, is_trial: false };
    provider.lines.push(src);
    const page = await s.page();
    await signInUi(page, reseller.username, DEFAULT_PASSWORD);
    await expect.poll(() => visibleText(byTestId(page, 'topbar-credits')), POLL).toBe('20');

    // migrate: URL -> what the provider said -> package -> /users
    await clickMenu(page, 'nav-users-migrate', '/users/migrate');
    await byTestId(page, 'migrate-url').fill(provider.playlistUrl(src));
    await expect.poll(() => visibleText(byTestId(page, 'migrate-found-username')), POLL).toBe(src.username);
    expect(await visibleText(byTestId(page, 'migrate-found-password'))).toBe(src.password);
    expect(provider.received.some((r) => r.url.startsWith('/player_api.php?'))).toBe(true);
    await pickOption(page, 'migrate-package', new RegExp(noAdult.package_name));
    await byTestId(page, 'migrate-submit').click();
    await toast(page, pt('migrate.success'));
    await waitForPath(page, '/users');
    await rowWithText(page, src.username).waitFor();
    await expect.poll(() => visibleText(byTestId(page, 'topbar-credits')), POLL).toBe('18');
    const line = (await reseller.get<LinePage>(`/users?username=${src.username}`)).data[0] as Line;
    expect(line).toMatchObject({ password: src.password, exp_date: src.exp_date, package_id: noAdult.id });

    // a trial at the provider is refused in the page
    const trial = { ...src, username: uniqueName('srct'), is_trial: true };
    provider.lines.push(trial);
    await clickMenu(page, 'nav-users-migrate', '/users/migrate');
    await byTestId(page, 'migrate-url').fill(provider.playlistUrl(trial));
    await expect.poll(() => visibleText(byTestId(page, 'migrate-blocked')), POLL).toBe(pt('migrate.errors.MIGRATION_TRIAL'));
    expect(await byTestId(page, 'migrate-submit').isDisabled()).toBe(true);

    // Lazy Player on the migrated line: MAC required, then charged, the stand-in got the MAC
    await clickMenu(page, 'nav-users', '/users');
    await lineAction(page, line.id, 'lazy');
    await byTestId(page, 'lazy-submit').click();
    await expect.poll(() => visibleText(page.locator('.mantine-TextInput-error')), POLL).toBe(pt('lazyPlayer.macRequired'));
    expect(lazy.received).toHaveLength(0);
    await byTestId(page, 'lazy-mac').fill('aa:bb:cc:dd:ee:01');
    await byTestId(page, 'lazy-submit').click();
    const charged = Math.ceil(((src.exp_date - Math.floor(Date.now() / 1000)) / (30 * DAY)) * 2);
    await toast(page, pt('lazyPlayer.success', { amount: charged }));
    await expect.poll(() => visibleText(byTestId(page, 'topbar-credits')), POLL).toBe(String(18 - charged));
    expect(lazy.received).toHaveLength(1);
    expect((await formFields(lazy.received[0]!)).mac).toBe('AA:BB:CC:DD:EE:01');
  });

  test('a master requests a title from the catalogue search; the admin marks it added', async () => {
    const page = await s.page();
    await signInUi(page, master.username, DEFAULT_PASSWORD);
    await clickMenu(page, 'nav-vods', '/vods');
    await byTestId(page, 'vod-search-open').click();
    await byTestId(page, 'vod-search-input').fill('clube');
    await byTestId(page, 'vod-pick-550').click();
    await byTestId(page, 'vod-notes').fill('Dublado, por favor');
    await byTestId(page, 'vod-request-submit').click();
    await toast(page, pt('vods.requested'));
    await rowWithText(byTestId(page, 'vods-table'), 'Clube da Luta').waitFor();
    expect(tmdb.received.some((r) => r.url.includes('language=pt-BR'))).toBe(true);

    // the same title again: refused with the fixed text
    await byTestId(page, 'vod-search-open').click();
    await byTestId(page, 'vod-search-input').fill('clube');
    await byTestId(page, 'vod-pick-550').click();
    await byTestId(page, 'vod-request-submit').click();
    await toast(page, pt('vods.refused'));

    const adminPage = await s.page();
    await signInUi(adminPage, s.server.adminUsername, s.server.adminPassword);
    await clickMenu(adminPage, 'nav-list-vods-adm', '/list/vods/adm');
    const row = rowWithText(byTestId(adminPage, 'admin-vods-table'), 'Clube da Luta');
    await row.waitFor();
    // nothing selected: the fixed warning
    await byTestId(adminPage, 'vod-bulk-remove').click();
    await toast(adminPage, pt('vods.admin.noneToRemove'));
    await row.locator('[data-testid^="vod-mark-added-"]').click();
    await toast(adminPage, pt('vods.admin.changed'));
    await expect.poll(() => row.locator('[data-testid^="vod-mark-added-"]').count(), POLL).toBe(0);
    expect((await visibleText(row)).toLowerCase()).toContain(pt('vods.status.added').toLowerCase());
  });

  test('the admin saves a chat link in the settings and the sidebar shows it, opening in a new tab', async () => {
    const page = await s.page();
    await signInUi(page, s.server.adminUsername, s.server.adminPassword);
    expect(await byTestId(page, 'nav-external-chat').count()).toBe(0);
    await clickMenu(page, 'nav-settings', '/settings');
    expect((await visibleText(byTestId(page, 'integration-tmdb'))).toLowerCase()).toContain(pt('settings.integrations.on').toLowerCase());
    await byTestId(page, 'setting-chat_group_url').fill('javascript:alert(1)');
    await byTestId(page, 'settings-save').click();
    await page.getByText(pt('settings.urlInvalid')).waitFor();
    await byTestId(page, 'setting-chat_group_url').fill('https://chat.example.com/grupo');
    await byTestId(page, 'settings-save').click();
    await toast(page, pt('settings.saved'));
    const link = byTestId(page, 'nav-external-chat');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('https://chat.example.com/grupo');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await byTestId(page, 'nav-external-manual').count()).toBe(0);
  });

  test('no configured key is in the built web app', () => {
    expect(builtAppLeaks([TMDB_KEY, process.env.TMDB_API_KEY])).toEqual([]);
  });
});
});
});
