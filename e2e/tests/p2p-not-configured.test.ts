import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { Api, ApiCallError, byTestId, DEFAULT_PASSWORD, pathOf, signInUi, switchLanguage, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

// P2P on a panel whose P2P server is not configured (P2P_API_URL unset: this suite's server has no
// P2P stand-in): a reseller, signed in once, walks the menus at 375 px and at 1280 px. Every P2P page
// says why in words (no environment variable names), nothing can be created, the dashboard never asks
// for the online list, and the /p2p_users search box stays usable on a phone.

const POLL = { timeout: 15_000, interval: 150 };
const pt = (key: string) => tr('pt-BR', key);
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };

/** Clicks a sidebar entry (behind the burger on phones) and waits for its page. */
async function clickMenu(page: Page, path: string): Promise<void> {
  const testId = `nav-${path.replace(/^\/+/, '').replace(/\//g, '-') || 'dashboard'}`;
  const burger = byTestId(page, 'nav-burger');
  if (await burger.isVisible()) await burger.click();
  const entry = byTestId(page, testId);
  await entry.waitFor({ state: 'visible' });
  await entry.click();
  await waitForPath(page, path);
}

/** The unavailable note under a P2P entry (the sidebar is opened on phones to read it, then closed). */
async function entryNote(page: Page, path: string): Promise<string> {
  const testId = `nav-${path.replace(/^\/+/, '').replace(/\//g, '-')}-unavailable`;
  const burger = byTestId(page, 'nav-burger');
  const phone = await burger.isVisible();
  if (phone) await burger.click();
  const text = await visibleText(byTestId(page, testId));
  if (phone) await burger.click();
  return text;
}

/** The explanation a reseller gets: what is unavailable and whom to ask, never a variable name. */
async function expectExplained(page: Page, testId: string, bodyKey: 'body' | 'online'): Promise<void> {
  const alert = byTestId(page, testId);
  await alert.waitFor({ state: 'visible' });
  const text = await alert.innerText();
  expect(text).toContain(pt('p2p.notConfigured.title'));
  expect(text).toContain(pt(`p2p.notConfigured.${bodyKey}`));
  expect(text).toContain(pt('p2p.notConfigured.ask'));
  expect(text).not.toMatch(/P2P_API|_URL|_KEY/);
}

describe('P2P without a P2P server, as a reseller', () => {
  const s = useE2eSuite({ env: { P2P_API_URL: '', OLD_P2P_URL: '' } });
  let reseller: { username: string; api: Api };
  let packageId: number;

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    packageId = (await s.admin.createPackage({ package_name: uniqueName('P2P mensal '), bouquets: [String(bouquet.id)] })).id;
    const r = await s.admin.createReseller({ credits: 5 });
    reseller = { username: r.username, api: await Api.signIn(s.server.baseUrl, r.username, r.password) };
  });

  test('the menus and pages say why at 375 px and 1280 px; nothing can be created; no online-list request; the search box works on a phone', async () => {
    const page = await s.page({ viewport: PHONE });
    const onlineRequests: string[] = [];
    const p2pWrites: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/api/p2p/users/online')) onlineRequests.push(`${req.method()} ${url.pathname}`);
      if (req.method() !== 'GET' && url.pathname.startsWith('/api/p2p/')) p2pWrites.push(`${req.method()} ${url.pathname}`);
    });

    await signInUi(page, reseller.username, DEFAULT_PASSWORD);

    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      const at = `${viewport.width} px`;
      if (pathOf(page) !== '/') await clickMenu(page, '/');

      // dashboard: the online P2P card says "not configured" without asking the P2P server
      await expect.poll(() => visibleText(byTestId(page, 'card-users_onlinep2p-hint')), POLL).toBe(pt('dashboard.notConfigured'));
      expect(await visibleText(byTestId(page, 'card-users_onlinep2p-value')), at).toBe('—');

      // the menu says the P2P entries are unavailable, in words
      for (const path of ['/p2p_users/add', '/p2p_users/add_trial', '/p2p_users/connections', '/p2p_migrate_users']) {
        expect(await entryNote(page, path), `${at} ${path}`).toBe(pt('p2p.notConfigured.nav'));
      }

      // the create form says so before it is filled, and cannot be sent (button or Enter)
      for (const path of ['/p2p_users/add', '/p2p_users/add_trial']) {
        await clickMenu(page, path);
        await expectExplained(page, 'p2p-not-configured', 'body');
        const submit = byTestId(page, 'user-submit');
        await submit.waitFor({ state: 'visible' });
        expect(await submit.isDisabled(), `${at} ${path}`).toBe(true);
        await byTestId(page, 'user-name').fill('Cliente P2P');
        await byTestId(page, 'user-name').press('Enter');
      }

      // the online page names P2P and whom to ask; no request, no refresh button
      await clickMenu(page, '/p2p_users/connections');
      await expectExplained(page, 'p2p-online-not-configured', 'online');
      expect(await byTestId(page, 'p2p-online-refresh').count()).toBe(0);

      // the list: the same explanation; the search box is wide enough, on top, and can be typed into
      await clickMenu(page, '/p2p_users');
      await expectExplained(page, 'p2p-not-configured', 'body');
      const search = byTestId(page, 'p2p-filter-username');
      await search.waitFor({ state: 'visible' });
      const box = await search.boundingBox();
      if (!box) throw new Error('no search box');
      expect(box.width, `${at}: search box width`).toBeGreaterThanOrEqual(150);
      expect(box.x + box.width, `${at}: search box inside the screen`).toBeLessThanOrEqual(viewport.width);
      for (const other of ['p2p-filter-status', 'p2p-filter-type']) {
        const o = await byTestId(page, other).boundingBox();
        if (!o) throw new Error(`no ${other}`);
        const overlaps = o.x < box.x + box.width && box.x < o.x + o.width && o.y < box.y + box.height && box.y < o.y + o.height;
        expect(overlaps, `${at}: ${other} overlaps the search box`).toBe(false);
      }
      // what is at the box's centre is the box itself (nothing drawn over it)
      const onTop = await page.evaluate(
        ({ x, y }) => {
          const el = document.elementFromPoint(x, y);
          return !!el?.closest('[data-testid="p2p-filter-username"]') || el?.getAttribute('data-testid') === 'p2p-filter-username';
        },
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      );
      expect(onTop, `${at}: search box covered`).toBe(true);
      const term = `cli${viewport.width}`;
      await search.click();
      await search.fill('');
      await search.pressSequentially(term);
      expect(await search.inputValue()).toBe(term);
      await expect.poll(() => new URL(page.url()).searchParams.get('username'), POLL).toBe(term);
      await search.fill('');
    }

    // English too
    await switchLanguage(page, 'en-US');
    await clickMenu(page, '/p2p_users/add');
    await expect.poll(() => visibleText(byTestId(page, 'p2p-not-configured-ask')), POLL).toBe(tr('en-US', 'p2p.notConfigured.ask'));
    expect(await byTestId(page, 'p2p-not-configured').innerText()).toContain(tr('en-US', 'p2p.notConfigured.body'));

    expect(onlineRequests, 'requests to /api/p2p/users/online').toEqual([]);
    expect(p2pWrites, 'P2P writes sent by the browser').toEqual([]);

    // and the server agrees: nothing made, nothing charged
    await expect(reseller.api.post('/p2p/users', { name: 'x', package_id: packageId })).rejects.toSatisfy((e: unknown) => e instanceof ApiCallError && e.status === 503);
    expect((await reseller.api.profile()).credits).toBe(5);
    expect((await reseller.api.get<{ data: unknown[] }>('/p2p/users')).data).toEqual([]);
  });
});
