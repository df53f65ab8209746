
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Api, byTestId, clickMenuEntry, type Line, lineAction, type LinePage, type Package, pathOf, rowWithText, signInWithToken, toast, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

const POLL = { timeout: 10_000, interval: 100 };
const DAY = 86_400;

const text = tr;
const pt = (key: string, vars?: Record<string, string | number>) => text('pt-BR', key, vars);

/** Picks an option of a Mantine Select by its label. */
async function pickOption(page: Page, selectTestId: string, label: string): Promise<void> {
  await byTestId(page, selectTestId).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

describe('lines (end users): create, renew, extend, block, short link, filter, remove', () => {
  const s = useE2eSuite();
  let reseller: Api;
  let monthly: Package;
  let quarterly: Package;
  let line: Line;

  const credits = (page: Page) => visibleText(byTestId(page, 'topbar-credits'));
  const getLine = (id: number) => reseller.get<Line>(`/users/${id}`);
  const openUsers = async (to = '/users') => {
    const page = await s.page();
    await signInWithToken(page, reseller.token, to);
    return page;
  };

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    monthly = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    quarterly = await s.admin.createPackage({
      package_name: uniqueName('Trimestral '),
      bouquets: [String(bouquet.id)],
      official_credits: 2,
      official_duration: 3,
    });
    reseller = await s.admin.createAndSignIn({ type: 'reseller', credits: 10 });
  });

  test('a reseller creates a line: the dialog shows the credentials and the balance drops', async () => {
    const page = await openUsers('/users/add');
    await expect.poll(() => credits(page), POLL).toBe('10');

    const username = uniqueName('ln');
    await byTestId(page, 'user-username').fill(username);
    await byTestId(page, 'user-generate-password').click();
    const password = await byTestId(page, 'user-password').inputValue();
    expect(password).toMatch(/^[a-z0-9]{6,9}$/);
    await pickOption(page, 'user-package', monthly.package_name);
    await expect.poll(() => visibleText(byTestId(page, 'user-cost')), POLL).toContain(pt('users.form.cost_one', { count: 1 }));
    await byTestId(page, 'user-whatsapp').fill('11 91234-5678');
    await byTestId(page, 'user-submit').click();

    const dialog = byTestId(page, 'user-created-dialog'); // Modal root: no box of its own, wait for its content
    await byTestId(dialog, 'created-username').waitFor();
    expect(await byTestId(dialog, 'created-username').inputValue()).toBe(username);
    expect(await byTestId(dialog, 'created-password').inputValue()).toBe(password);
    await toast(page, pt('users.created.success'));
    await expect.poll(() => credits(page), POLL).toBe('9');

    const found = await reseller.get<LinePage>(`/users?username=${username}`);
    expect(found.data).toHaveLength(1);
    line = found.data[0]!;
    expect(line.password).toBe(password);
    expect(line.package_id).toBe(monthly.id);
    expect(line.exp_date - Math.floor(Date.now() / 1000)).toBeGreaterThan(27 * DAY);

    await byTestId(dialog, 'created-to-list').click();
    await waitForPath(page, '/users');
    await rowWithText(page, username).waitFor();
    expect(await visibleText(byTestId(page, `user-status-${line.id}`))).toBe(pt('users.status.active'));
    expect(await byTestId(page, `user-expiry-${line.id}`).getAttribute('data-color')).toBe('green');
  });

  test('flash renew (1 month for max_connections credits) and renew by package', async () => {
    const page = await openUsers();
    await rowWithText(page, line.username).waitFor();
    await expect.poll(() => credits(page), POLL).toBe('9');

    const before = line.exp_date;
    await lineAction(page, line.id, 'flash');
    await expect.poll(() => visibleText(page.locator('.mantine-Modal-body')), POLL).toContain(line.username);
    await byTestId(page, 'confirm-yes').click();
    await toast(page, pt('users.renew.success'));
    await expect.poll(() => credits(page), POLL).toBe('8');
    const flashed = await getLine(line.id);
    expect(flashed.exp_date - before).toBeGreaterThanOrEqual(28 * DAY);
    expect(flashed.exp_date - before).toBeLessThanOrEqual(31 * DAY);

    await lineAction(page, line.id, 'renew');
    const modal = byTestId(page, 'renew-modal');
    await byTestId(modal, 'renew-package').waitFor();
    await pickOption(page, 'renew-package', quarterly.package_name);
    await expect.poll(() => visibleText(byTestId(page, 'renew-cost')), POLL).toContain(pt('users.renew.cost_other', { count: 2 }));
    await byTestId(page, 'renew-submit').click();
    await toast(page, pt('users.renew.success'));
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => credits(page), POLL).toBe('6');
    const renewed = await getLine(line.id);
    expect(renewed.package_id).toBe(quarterly.id);
    expect(renewed.exp_date - flashed.exp_date).toBeGreaterThanOrEqual(89 * DAY);
    expect(renewed.exp_date - flashed.exp_date).toBeLessThanOrEqual(92 * DAY);
    line = renewed;
  });

  test('extend by 2 days (free); a second extension within 30 days is refused', async () => {
    const page = await openUsers();
    await rowWithText(page, line.username).waitFor();

    await lineAction(page, line.id, 'extend');
    const days = byTestId(page, 'extend-days');
    await days.fill('2');
    await byTestId(page, 'extend-submit').click();
    await byTestId(page, 'extend-modal').waitFor({ state: 'detached' });
    await expect.poll(async () => (await getLine(line.id)).exp_date, POLL).toBe(line.exp_date + 2 * DAY);
    await expect.poll(() => credits(page), POLL).toBe('6');

    await lineAction(page, line.id, 'extend');
    await byTestId(page, 'extend-days').fill('1');
    await byTestId(page, 'extend-submit').click();
    await toast(page, pt('errors.EXTEND_LIMIT_REACHED'));
    expect((await getLine(line.id)).exp_date).toBe(line.exp_date + 2 * DAY);
    line = await getLine(line.id);
  });

  test('system switch, then block and unblock with confirmation', async () => {
    const page = await openUsers();
    await rowWithText(page, line.username).waitFor();

    // HTTP -> P2P (only offered while enabled).
    await page.locator('label', { has: byTestId(page, `user-system-${line.id}`) }).click();
    await toast(page, pt('users.system.changed'));
    await expect.poll(async () => (await getLine(line.id)).system, POLL).toBe(2);

    await lineAction(page, line.id, 'block');
    await byTestId(page, 'confirm-yes').click();
    await toast(page, pt('users.block.success'));
    await expect.poll(() => visibleText(byTestId(page, `user-status-${line.id}`)), POLL).toBe(pt('users.status.blocked'));
    expect((await getLine(line.id)).enabled).toBe(0);
    // Blocked: the system is shown, not offered.
    expect(await byTestId(page, `user-system-${line.id}`).getAttribute('role')).toBeNull();

    await lineAction(page, line.id, 'unblock');
    await byTestId(page, 'confirm-yes').click();
    await toast(page, pt('users.unblock.success'));
    await expect.poll(() => visibleText(byTestId(page, `user-status-${line.id}`)), POLL).toBe(pt('users.status.active'));
    expect((await getLine(line.id)).enabled).toBe(1);
  });

  test('short links: the three offered originals (HLS first, no MPEG-TS), shorten one (redirects to the original), copy it', async () => {
    const page = await openUsers();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await rowWithText(page, line.username).waitFor();

    await lineAction(page, line.id, 'links');
    await byTestId(page, 'link-short').waitFor();
    const m3u8 = byTestId(page, 'link-original-m3u8');
    await expect.poll(() => m3u8.inputValue(), POLL).toContain(`username=${line.username}`);
    expect(await m3u8.inputValue()).toContain('output=m3u8');
    for (const type of ['hls', 'ssiptv']) expect(await byTestId(page, `link-original-${type}`).inputValue()).toContain(line.username);
    expect(await byTestId(page, 'link-original-mpgets').count()).toBe(0);

    const short = byTestId(page, 'link-short');
    await byTestId(page, 'link-shorten-m3u8').click();
    await expect.poll(() => short.inputValue(), POLL).toMatch(/\/s\/[A-Za-z0-9_-]+$/);
    const url = await short.inputValue();
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(await m3u8.inputValue());

    await byTestId(page, 'link-short-copy').click();
    await toast(page, pt('users.links.copied'));

    // A new request replaces the previous short link.
    await byTestId(page, 'link-shorten-hls').click();
    await expect.poll(async () => {
      const v = await short.inputValue();
      return v !== '' && v !== url;
    }, POLL).toBe(true);
  });

  test('filters live in the URL, survive a reload and drop the page when removed', async () => {
    const other = await reseller.post<Line>('/users', { package_id: monthly.id, reseller_notes: 'segunda linha' });
    const page = await openUsers('/users?page=1&per=20');
    await rowWithText(page, line.username).waitFor();
    await rowWithText(page, other.username).waitFor();

    await byTestId(page, 'users-filters-toggle').click();
    await byTestId(page, 'filter-username').fill(line.username);
    await byTestId(page, 'filter-apply').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('username'), POLL).toBe(line.username);
    await expect.poll(() => rowWithText(page, other.username).count(), POLL).toBe(0);
    await rowWithText(page, line.username).waitFor();

    await page.reload();
    await byTestId(page, 'filter-chip-username').waitFor();
    await rowWithText(page, line.username).waitFor();
    expect(await rowWithText(page, other.username).count()).toBe(0);
    expect(pathOf(page)).toBe('/users');

    // Quick search by notes text.
    await byTestId(page, 'filter-chip-username').locator('button').click();
    await rowWithText(page, other.username).waitFor();
    expect(new URL(page.url()).searchParams.get('username')).toBeNull();
    await byTestId(page, 'users-search').fill('segunda');
    await expect.poll(() => new URL(page.url()).searchParams.get('text_search'), POLL).toBe('segunda');
    await expect.poll(() => rowWithText(page, line.username).count(), POLL).toBe(0);
    await rowWithText(page, other.username).waitFor();

    // Status "blocked": nothing of ours is blocked.
    await byTestId(page, 'users-search').fill('');
    await expect.poll(() => new URL(page.url()).searchParams.get('text_search'), POLL).toBeNull();
    await page.goto('/users?status=0&page=2');
    await byTestId(page, 'filter-chip-status').waitFor();
    await byTestId(page, 'filter-chip-status').locator('button').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('status'), POLL).toBeNull();
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();
    await rowWithText(page, line.username).waitFor();
  });

  test('an admin filters the lines by reseller with the shared picker (word characters only)', async () => {
    const theirs = await reseller.post<Line>('/users', { package_id: monthly.id });
    const someoneElse = await s.admin.createAndSignIn({ type: 'reseller', credits: 5 });
    const notTheirs = await someoneElse.post<Line>('/users', { package_id: monthly.id });
    const page = await s.page();
    await signInWithToken(page, s.admin.token, '/users');
    await byTestId(page, 'users-filters-toggle').click();
    const picker = byTestId(page, 'filter-reseller');
    await picker.click();
    // A space and a quote are dropped as typed: select_search only takes word characters.
    await picker.pressSequentially(`${reseller.user.username.slice(0, 4)} '${reseller.user.username.slice(4)}`);
    expect(await picker.inputValue()).toBe(reseller.user.username);
    await page.getByRole('option', { name: reseller.user.username, exact: true }).click();
    await byTestId(page, 'filter-apply').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('reseller'), POLL).toBe(reseller.user.username);
    await rowWithText(page, theirs.username).waitFor();
    await expect.poll(() => rowWithText(page, notTheirs.username).count(), POLL).toBe(0);
    expect(await visibleText(byTestId(page, 'filter-chip-reseller'))).toContain(reseller.user.username);

    // Reopened, the picker shows the chosen reseller; clearing it lists everyone again.
    await byTestId(page, 'users-filters-toggle').click();
    await expect.poll(() => byTestId(page, 'filter-reseller').inputValue(), POLL).toBe(reseller.user.username);
    await byTestId(page, 'filter-clear').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('reseller'), POLL).toBeNull();
    await rowWithText(page, notTheirs.username).waitFor();
  });

  test('remove with confirmation: the row leaves the list and the line is gone', async () => {
    const page = await openUsers();
    await rowWithText(page, line.username).waitFor();

    await lineAction(page, line.id, 'remove');
    await byTestId(page, 'confirm-yes').click();
    await toast(page, pt('users.remove.success'));
    await expect.poll(() => rowWithText(page, line.username).count(), POLL).toBe(0);
    await expect(getLine(line.id)).rejects.toMatchObject({ status: 404 });
  });

  test('on a phone the row menu is at hand and the WhatsApp link carries the line data', async () => {
    const withPhone = await reseller.post<Line>('/users', { package_id: monthly.id, whatsapp: '(11) 98888-7777' });
    const page = await s.page({ viewport: { width: 390, height: 844 } });
    await signInWithToken(page, reseller.token, `/users?username=${withPhone.username}`);
    const actions = byTestId(page, `user-actions-${withPhone.id}`);
    await actions.waitFor();
    const box = await actions.boundingBox();
    expect(box && box.x + box.width <= 390).toBe(true);

    await lineAction(page, withPhone.id, 'whatsapp');
    const send = byTestId(page, 'whatsapp-send');
    await send.waitFor();
    expect(await send.getAttribute('href')).toBeNull(); // the yes/no choice comes first
    await byTestId(page, 'whatsapp-warning-no').check();
    const message = async () => decodeURIComponent((await send.getAttribute('href'))?.split('?text=')[1] ?? '');
    await expect.poll(message, POLL).toContain('get.php?username=');
    expect(await send.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/5511988887777\?text=/);
    expect(await message()).toContain(withPhone.username);
    expect(await message()).toContain(withPhone.password);
    expect(await message()).toMatch(/get\.php\?\S*&output=m3u8(\s|$)/); // the HLS link, as the links dialog's first

    // "Aviso vencimento" = yes switches to the expiry warning (no password in it).
    await byTestId(page, 'whatsapp-warning-yes').check();
    await expect.poll(message, POLL).not.toContain(withPhone.password);
    expect(await message()).toContain(withPhone.username);
  });
});

describe('lines: the table sorts by the five offered columns, at 1280 and 375 px', () => {
  const s = useE2eSuite();
  let reseller: Api;
  const lines: Line[] = [];

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const monthly = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    reseller = await s.admin.createAndSignIn({ type: 'reseller', credits: 10 });
    for (let i = 0; i < 3; i++) lines.push(await reseller.post<Line>('/users', { package_id: monthly.id }));
    // the middle one expires last
    await reseller.post(`/users/${lines[1]!.id}/extenddays`, { days: 3 });
  });

  /** Line ids in the order the page shows them. */
  const shownIds = (page: Page) =>
    page.locator('[data-testid^="user-username-"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-testid')?.replace('user-username-', ''))));

  test('1280 px: clicking the expiry header sorts by it, again the other way; password and status headers do not sort', async () => {
    const page = await s.page({ viewport: { width: 1280, height: 900 } });
    await signInWithToken(page, reseller.token, '/');
    await byTestId(page, 'dashboard-cards').waitFor();
    await clickMenuEntry(page, '/users');
    const [a, b, c] = lines.map((l) => l.id);
    await expect.poll(() => shownIds(page), POLL).toEqual([c, b, a]); // newest first

    const header = (name: string) => page.locator('thead th', { hasText: name });
    // the table keeps the direction when the column changes (newest first: desc)
    await header(pt('users.columns.expire')).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('order_by'), POLL).toBe('exp_date,desc');
    await expect.poll(() => shownIds(page), POLL).toEqual([b, c, a]);
    await header(pt('users.columns.expire')).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('order_by'), POLL).toBe('exp_date,asc');
    await expect.poll(() => shownIds(page), POLL).toEqual([a, c, b]);

    await header(pt('users.columns.password')).click();
    await header(pt('users.columns.status')).click();
    expect(new URL(page.url()).searchParams.get('order_by')).toBe('exp_date,asc');
  });

  test('375 px: the sort select offers exactly the five sorts, both ways', async () => {
    const page = await s.page({ viewport: { width: 375, height: 812 } });
    await signInWithToken(page, reseller.token, '/');
    await byTestId(page, 'dashboard-cards').waitFor();
    await clickMenuEntry(page, '/users');
    await byTestId(page, `user-row-${lines[0]!.id}`).waitFor();
    await byTestId(page, 'table-sort').click();
    const options = await page.getByRole('option').allTextContents();
    const names = ['id', 'username', 'created', 'expire', 'reseller'].map((k) => pt(`users.columns.${k}`));
    expect(options.map((o) => o.replace(/ [↑↓]$/, '')).sort()).toEqual([...names, ...names].sort());
    await page.getByRole('option', { name: `${pt('users.columns.created')} ↓` }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('order_by'), POLL).toBe('created_at,desc');
  });
});
