
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Api, byTestId, clickMenuEntry, type Dashboard, lineAction, toast, type Line, type LinePage, type NewsItem, signInWithToken, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

const POLL = { timeout: 10_000, interval: 100 };

const trp = tr;

const ptNumber = new Intl.NumberFormat('pt-BR');

/** Card key -> server figure (users_onlinep2p counts the P2P server's online list: not configured here). */
const SERVER_CARDS = [
  'resellers',
  'users',
  'users_active',
  'users_activep2p',
  'users_activehttp',
  'users_online_of_resellers',
  'users_online',
  'conections_online',
  'users_new',
  'users_trial',
  'users_trialp2p',
] as const;

/** Username cells of the expirations table, in display order. */
async function expiringUsernames(page: Page): Promise<string[]> {
  const rows = byTestId(page, 'expirations').locator('[data-testid^="expiring-row-"]');
  const names: string[] = [];
  for (const row of await rows.all()) names.push(((await row.locator('td').nth(1).textContent()) ?? '').trim());
  return names;
}

/** Picks an option of a Mantine Select/MultiSelect by its visible label. */
async function pickOption(page: Page, inputTestId: string, label: string, search?: string): Promise<void> {
  const input = byTestId(page, inputTestId);
  await input.click();
  if (search !== undefined) await input.fill(search);
  await page.getByRole('option', { name: label, exact: true }).click();
}

/**
 * Opens the dashboard signed in. Goes through the SPA (another route, then the sidebar link):
 * the server answers a direct GET / with 400 (see the report), every other path serves the app.
 */
async function openDashboard(page: Page, token: string): Promise<void> {
  await signInWithToken(page, token, '/logs');
  await byTestId(page, 'nav-dashboard').click();
  await waitForPath(page, '/');
  await byTestId(page, 'home-welcome').waitFor();
}

/** Start (ms) of the current day in São Paulo (the e2e browser's time zone; UTC-3, no DST). */
function saoPauloDayStart(now = Date.now()): number {
  const offset = -3 * 3_600_000;
  return Math.floor((now + offset) / 86_400_000) * 86_400_000 - offset;
}

describe('dashboard, news notice and action log', () => {
  // its own database: it expects the seeded notice (inactive, titled "Avisos") and edits it
  const s = useE2eSuite({ ownServer: true });
  let master: Api;
  let sub: Api;
  let short: Line;
  let long: Line;
  const subLines: Line[] = [];

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const bouquets = [String(bouquet.id)];
    const month = await s.admin.createPackage({ package_name: uniqueName('Month '), bouquets });
    const days = await s.admin.createPackage({ package_name: uniqueName('Days '), bouquets, official_duration: 2, official_duration_in: 'days' });
    const year = await s.admin.createPackage({ package_name: uniqueName('Year '), bouquets, official_duration: 1, official_duration_in: 'years' });
    const trial = await s.admin.createPackage({
      package_name: uniqueName('Trial '),
      bouquets,
      is_trial: 1,
      is_official: 0,
      trial_duration: 4,
      trial_duration_in: 'hours',
    });

    master = await s.admin.createAndSignIn({ type: 'master', credits: 100 });
    sub = await master.createAndSignIn({ type: 'reseller', credits: 20 });

    // Master: 1 line expiring in 2 days (with WhatsApp), 9 monthly lines (one blocked), 1 yearly line, 1 trial.
    short = await master.post<Line>('/users', { package_id: days.id, whatsapp: '(11) 98765-4321' });
    const monthly: Line[] = [];
    for (let i = 0; i < 9; i++) monthly.push(await master.post<Line>('/users', { package_id: month.id }));
    long = await master.post<Line>('/users', { package_id: year.id });
    await master.post(`/users/${monthly[0]?.id}/block`);
    await master.post('/trial_users', { package_id: trial.id });
    // Sub-reseller: 2 monthly lines (part of the master's subtree).
    for (let i = 0; i < 2; i++) subLines.push(await sub.post<Line>('/users', { package_id: month.id }));
  });

  test('the dashboard shows the caller-scoped figures, no inactive notice, and the lazy chart', async () => {
    const expected = await master.get<Dashboard>('/dashboard');
    // 11 + 1 trial + 2 of the sub-reseller; active excludes the trial and the blocked line.
    expect(expected).toMatchObject({
      resellers: 1,
      users: 14,
      users_active: 12,
      users_activehttp: 12,
      users_activep2p: 0,
      users_new: 14,
      users_trial: 1,
      users_trialp2p: 0,
    });

    const page = await s.page();
    await openDashboard(page, master.token);
    await expect.poll(() => visibleText(byTestId(page, 'home-welcome')), POLL).toContain(master.user.username);
    for (const key of SERVER_CARDS) {
      await expect.poll(() => visibleText(byTestId(page, `card-${key}-value`)), POLL).toBe(ptNumber.format(expected[key]));
    }
    expect(await visibleText(byTestId(page, 'card-users_active-label'))).toBe(trp('pt-BR', 'dashboard.cards.users_active'));
    await expect.poll(() => visibleText(byTestId(page, 'card-users_onlinep2p-value')), POLL).toBe('—');
    expect(await visibleText(byTestId(page, 'card-users_onlinep2p-hint'))).toBe(trp('pt-BR', 'dashboard.notConfigured'));
    expect(await byTestId(page, 'dashboard-cards').locator('[data-testid^="card-"][data-testid$="-label"]').count()).toBe(12);

    // The seeded notice (item 1) is inactive: no news box.
    expect(await byTestId(page, 'dashboard-news').count()).toBe(0);

    // The activity chart (separate chunk) counts today's 14 new lines.
    await expect.poll(() => visibleText(byTestId(page, 'activity-new-lines-total')), POLL).toBe('14');
  });

  test('the expirations table pages, sorts, links WhatsApp and flash-renews', async () => {
    const page = await s.page();
    await openDashboard(page, master.token);
    const table = byTestId(page, 'expirations');
    await byTestId(table, `expiring-row-${short.id}`).waitFor();

    // 12 enabled non-trial lines, 10 per page: ascending starts with the 2-day line.
    await expect.poll(() => expiringUsernames(page), POLL).toHaveLength(10);
    expect((await expiringUsernames(page))[0]).toBe(short.username);
    await expect.poll(() => visibleText(byTestId(table, 'pager-summary')), POLL).toContain(tr('pt-BR', 'pager.pageOf', { page: 1, pages: 2 }));

    // WhatsApp: the same choice as on /users ("Aviso vencimento" yes = reminder, no = access data).
    await byTestId(table, `expiring-whatsapp-${short.id}`).click();
    const send = byTestId(page, 'whatsapp-send');
    await send.waitFor();
    expect(await send.getAttribute('href')).toBeNull();
    const message = async () => decodeURIComponent((await send.getAttribute('href'))?.split('?text=')[1] ?? '');
    await byTestId(page, 'whatsapp-warning-yes').check();
    await expect.poll(message, POLL).toContain(short.username);
    expect(await send.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/5511987654321\?text=/);
    expect(await message()).not.toContain(short.password);
    await byTestId(page, 'whatsapp-warning-no').check();
    await expect.poll(message, POLL).toContain(short.password);
    expect(await message()).toContain('get.php?username=');
    await page.keyboard.press('Escape');
    await byTestId(page, 'whatsapp-modal').waitFor({ state: 'detached' });

    await byTestId(table, 'pager-page-2').click();
    await expect.poll(() => expiringUsernames(page), POLL).toHaveLength(2);
    expect(await expiringUsernames(page)).toContain(long.username);

    // Descending: back to page 1, the yearly line first.
    await byTestId(page, 'expirations-order').click();
    await expect.poll(async () => (await expiringUsernames(page))[0], POLL).toBe(long.username);
    expect(await expiringUsernames(page)).toHaveLength(10);
    await byTestId(page, 'expirations-order').click();
    await expect.poll(async () => (await expiringUsernames(page))[0], POLL).toBe(short.username);

    // A line without a number explains how to add one.
    await byTestId(table, `expiring-whatsapp-${subLines[0]?.id}`).click();
    await page.getByText(trp('pt-BR', 'whatsapp.noNumber')).first().waitFor();

    // Flash renew of the 2-day line: confirm shows the cost, balance drops by 1, the line moves down.
    const before = (await master.profile()).credits;
    await byTestId(table, `expiring-renew-${short.id}`).click();
    await expect.poll(() => visibleText(byTestId(page, 'renew-cost')), POLL).toContain('1');
    await byTestId(page, 'confirm-yes').click();
    await page.getByText(trp('pt-BR', 'dashboard.expirations.renewSuccess')).first().waitFor();
    await expect.poll(() => visibleText(byTestId(page, 'topbar-credits')), POLL).toBe(ptNumber.format(before - 1));
    expect((await master.profile()).credits).toBe(before - 1);
    await expect.poll(async () => (await expiringUsernames(page))[0], POLL).not.toBe(short.username);
    const renewed = (await master.get<LinePage>('/users/expiring?per=100')).data.find((l) => l.id === short.id);
    expect(renewed?.exp_date).toBeGreaterThan(short.exp_date + 27 * 86_400);
  });

  test('an admin edits the notice and it shows on the dashboard as text, with line breaks', async () => {
    const title = uniqueName('Promo ');
    const page = await s.page();
    await signInWithToken(page, s.admin.token, '/edit_news');
    const titleInput = byTestId(page, 'news-title');
    await expect.poll(() => titleInput.inputValue(), POLL).toBe('Avisos');

    // All four fields are required.
    await titleInput.fill('');
    await byTestId(page, 'news-save').click();
    await page.getByText(trp('pt-BR', 'news.required')).first().waitFor();

    await titleInput.fill(title);
    await byTestId(page, 'news-body').fill('Linha 1\nLinha <b>2</b> 100%');
    await byTestId(page, 'news-level').fill('3');
    await pickOption(page, 'news-status', trp('pt-BR', 'news.active'));
    await byTestId(page, 'news-save').click();
    await page.getByText(trp('pt-BR', 'news.success')).first().waitFor();

    const saved = (await s.admin.get<{ data: NewsItem[] }>('/news')).data.find(
      (n) => n.id === 1,
    );
    expect(saved).toMatchObject({ title, body: 'Linha 1\nLinha <b>2</b> 100%', level: 3, status: 1 });

    // The admin and a master both see it; the markup stays text.
    for (const [token, p] of [
      [s.admin.token, page],
      [master.token, await s.page()],
    ] as const) {
      await openDashboard(p, token);
      const box = byTestId(p, 'dashboard-news');
      await box.waitFor();
      expect(await visibleText(box)).toContain(trp('pt-BR', 'dashboard.news.title'));
      expect(await visibleText(byTestId(p, 'dashboard-news-title'))).toBe(title);
      expect(await visibleText(byTestId(p, 'dashboard-news-body'))).toBe('Linha 1\nLinha <b>2</b> 100%');
      expect(await byTestId(p, 'dashboard-news-body').locator('br').count()).toBe(1);
      expect(await byTestId(p, 'dashboard-news-body').locator('b').count()).toBe(0);
    }
  });

  test('the log page filters by date preset (browser time zone) and by reseller', async () => {
    const page = await s.page();
    const logRequests: URL[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/logs') logRequests.push(u);
    });
    await signInWithToken(page, s.admin.token, '/logs');
    const table = byTestId(page, 'logs-table');
    const userCreate = trp('pt-BR', 'logs.actions.user_create');
    await table.getByText(userCreate).first().waitFor();

    // Default: the last 7 days, midnight to end of today in São Paulo.
    const dayStart = saoPauloDayStart();
    await expect.poll(() => logRequests.at(-1)?.searchParams.get('dates'), POLL).toBe(`${dayStart - 6 * 86_400_000},${dayStart + 86_400_000 - 1}`);

    // Yesterday: nothing happened then.
    await pickOption(page, 'logs-filter-preset', trp('pt-BR', 'logs.presets.yesterday'));
    await expect.poll(() => new URL(page.url()).searchParams.get('preset'), POLL).toBe('yesterday');
    await expect.poll(() => logRequests.at(-1)?.searchParams.get('dates'), POLL).toBe(`${dayStart - 86_400_000},${dayStart - 1}`);
    await table.getByText(trp('pt-BR', 'logs.empty')).waitFor();
    await byTestId(page, 'filter-chip-preset').waitFor();

    // Today: the seeded actions are back.
    await pickOption(page, 'logs-filter-preset', trp('pt-BR', 'logs.presets.today'));
    await expect.poll(() => logRequests.at(-1)?.searchParams.get('dates'), POLL).toBe(`${dayStart},${dayStart + 86_400_000 - 1}`);
    await table.getByText(userCreate).first().waitFor();

    // Reseller: the async picker finds the sub-reseller; every row is then its own.
    await pickOption(page, 'logs-filter-reseller', sub.user.username, sub.user.username.slice(0, 6));
    await expect.poll(() => new URL(page.url()).searchParams.get('reseller'), POLL).toBe(String(sub.user.id));
    await expect.poll(() => visibleText(byTestId(page, 'filter-chip-reseller')), POLL).toContain(sub.user.username);
    await expect.poll(async () => [...new Set(await table.locator('[data-testid="log-reseller"]').allTextContents())], POLL).toEqual([sub.user.username]);
    // Its sign-in and its two lines.
    await expect.poll(() => table.getByText(userCreate).count(), POLL).toBe(2);
    expect(await table.getByText(trp('pt-BR', 'logs.actions.sign_in')).count()).toBe(1);

    // The URL alone restores the filters (reload), and removing the chip clears the reseller.
    await page.reload();
    await expect.poll(() => visibleText(byTestId(page, 'filter-chip-reseller')), POLL).toContain(sub.user.username);
    await expect.poll(() => table.getByText(userCreate).count(), POLL).toBe(2);
    await byTestId(page, 'filter-chip-reseller').locator('button').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('reseller'), POLL).toBeNull();
    await expect.poll(async () => (await table.locator('[data-testid="log-reseller"]').allTextContents()).includes(master.user.username), POLL).toBe(true);
  });

  test('a plain reseller sees only its own subtree in the log, without reseller pickers', async () => {
    const page = await s.page();
    await signInWithToken(page, sub.token, '/logs');
    await waitForPath(page, '/logs');
    const table = byTestId(page, 'logs-table');
    await table.getByText(trp('pt-BR', 'logs.actions.user_create')).first().waitFor();
    expect(await byTestId(page, 'logs-filter-reseller').count()).toBe(0);
    expect(await byTestId(page, 'logs-filter-toreseller').count()).toBe(0);
    // Its own two lines, not the master's eleven; what the master did to it (creation) is visible too.
    await expect.poll(() => table.getByText(trp('pt-BR', 'logs.actions.user_create')).count(), POLL).toBe(2);
    expect(await table.getByText(trp('pt-BR', 'logs.actions.reseller_create')).count()).toBe(1);
  });
});

describe('dashboard of a top-level master, on a phone, follows its own changes at once', () => {
  const s = useE2eSuite();

  test('375 px: a line created and then blocked through the menus moves the cards on the next visit', async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const monthly = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    const master = await s.admin.createAndSignIn({ type: 'master', credits: 10 });
    await master.post<Line>('/users', { package_id: monthly.id });

    const page = await s.page({ viewport: { width: 375, height: 740 } });
    await signInWithToken(page, master.token, '/logs');
    await byTestId(page, 'nav-burger').waitFor();
    await clickMenuEntry(page, '/');
    const card = (key: string) => visibleText(byTestId(page, `card-${key}-value`));
    await expect.poll(() => card('users_active'), POLL).toBe('1');
    await expect.poll(() => card('users_new'), POLL).toBe('1');

    // A second line through the create form (menu, then the form).
    await clickMenuEntry(page, '/users/add');
    await byTestId(page, 'user-username').fill(uniqueName('ln'));
    await byTestId(page, 'user-generate-password').click();
    await pickOption(page, 'user-package', monthly.package_name);
    await byTestId(page, 'user-submit').click();
    await byTestId(byTestId(page, 'user-created-dialog'), 'created-username').waitFor();
    await page.keyboard.press('Escape');
    await clickMenuEntry(page, '/');
    await expect.poll(() => card('users_active'), POLL).toBe('2');
    await expect.poll(() => card('users_activehttp'), POLL).toBe('2');
    await expect.poll(() => card('users'), POLL).toBe('2');

    // Blocked from the list's row menu: still a line, no longer active.
    const first = (await master.get<LinePage>('/users')).data.at(-1)!;
    await clickMenuEntry(page, '/users');
    await lineAction(page, first.id, 'block');
    await byTestId(page, 'confirm-yes').click();
    await toast(page, trp('pt-BR', 'users.block.success'));
    await clickMenuEntry(page, '/');
    await expect.poll(() => card('users_active'), POLL).toBe('1');
    await expect.poll(() => card('users'), POLL).toBe('2');
  });
});
