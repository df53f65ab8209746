import { describe, expect, test } from 'vitest';
import { byTestId, type ResellerPage, signInUi, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

const POLL = { timeout: 10_000, interval: 100 };
const pt = (key: string) => tr('pt-BR', key);

describe('reseller form: password strength', () => {
  const s = useE2eSuite();

  test("the strength shows as the user types, a weak password is not sent, and the server's estimate is asked only on the form", async () => {
    const page = await s.page();
    const strengthAsks: string[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/api/password-strength')) strengthAsks.push(req.postData() ?? '');
    });
    const posts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/resellers')) posts.push(req.url());
    });

    await signInUi(page, s.server.adminUsername, s.server.adminPassword);
    await byTestId(page, 'dashboard-cards').waitFor();
    expect(strengthAsks, 'nothing is asked outside the form').toEqual([]);

    await byTestId(page, 'nav-resellers-add').click();
    await waitForPath(page, '/resellers/add');
    const username = uniqueName('forca');
    await byTestId(page, 'reseller-form-username').fill(username);
    const meter = byTestId(page, 'reseller-form-password-strength');
    const level = byTestId(page, 'reseller-form-password-strength-level');

    await byTestId(page, 'reseller-form-password').fill('abcdefgh');
    await expect.poll(() => visibleText(level), POLL).toContain(pt('passwordStrength.levels.weak'));
    expect(await meter.getAttribute('data-ok')).toBe('0');
    expect(await visibleText(byTestId(page, 'reseller-form-password-strength-warning'))).not.toBe('');
    expect(strengthAsks.length, 'the server estimates (no dictionaries in the browser)').toBeGreaterThan(0);

    // built on the username: weak too
    await byTestId(page, 'reseller-form-password').fill(`${username}2024`);
    await expect.poll(() => meter.getAttribute('data-ok'), POLL).toBe('0');

    await byTestId(page, 'reseller-form-password').fill('qwertyuio');
    await expect.poll(() => visibleText(level), POLL).toContain(pt('passwordStrength.levels.weak'));
    await byTestId(page, 'reseller-form-save').click();
    await page.getByText(pt('errors.WEAK_PASSWORD')).first().waitFor();
    expect(posts, 'a weak password is never sent').toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/resellers/add');

    await byTestId(page, 'reseller-form-password').fill('Girassol-teclado-nuvem-8');
    await expect.poll(() => meter.getAttribute('data-ok'), POLL).toBe('1');
    expect(await visibleText(level)).toMatch(new RegExp(`${pt('passwordStrength.levels.good')}|${pt('passwordStrength.levels.strong')}`));
    await byTestId(page, 'reseller-form-save').click();
    await waitForPath(page, '/resellers');
    expect(posts).toHaveLength(1);
    const list = await s.admin.get<ResellerPage>(`/resellers?username=${username}`);
    expect(list.data.map((r) => r.username)).toEqual([username]);
  });
});
