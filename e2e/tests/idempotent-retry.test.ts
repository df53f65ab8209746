import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Api, byTestId, type Line, lineAction, rowWithText, signInWithToken, toast, tr, uniqueName, useE2eSuite, visibleText } from '../support/index.ts';

const POLL = { timeout: 10_000, interval: 100 };
const pt = (key: string, vars?: Record<string, string | number>) => tr('pt-BR', key, vars);

interface LedgerPage {
  data: { delta: number; reason: string; line_id: number | null }[];
}

// Idempotency per intent: the answer to a flash renew is lost on its way back (the server did
// the renewal), the user tries again, and the retry carries the same Idempotency-Key: one charge.

describe('a spend retried after its answer was lost is charged once', () => {
  const s = useE2eSuite();
  let reseller: Api;
  let line: Line;

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    reseller = await s.admin.createAndSignIn({ type: 'reseller', credits: 10 });
    line = await reseller.post<Line>('/users', { package_id: pkg.id });
  });

  const credits = (page: Page) => visibleText(byTestId(page, 'topbar-credits'));
  const flash = async (page: Page) => {
    await lineAction(page, line.id, 'flash');
    await expect.poll(() => visibleText(page.locator('.mantine-Modal-body')), POLL).toContain(line.username);
    await byTestId(page, 'confirm-yes').click();
  };

  test('flash renew: the first answer is lost, the retry is answered with the first one, one charge', async () => {
    const page = await s.page();
    await signInWithToken(page, reseller.token, '/users');
    await rowWithText(page, line.username).waitFor();
    await expect.poll(() => credits(page), POLL).toBe('9');

    const keys: string[] = [];
    let lost = 0;
    await page.route(`**/api/users/${line.id}/renew`, async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (lost === 0) {
        lost++;
        await route.fetch(); // the server receives it and renews
        await route.abort('connectionreset'); // but its answer never reaches the browser
        return;
      }
      await route.continue();
    });

    await flash(page);
    await expect.poll(() => lost, POLL).toBe(1);
    await expect.poll(async () => (await reseller.profile()).credits, POLL).toBe(8); // the server did charge
    const renewedOnce = await reseller.get<Line>(`/users/${line.id}`);

    await flash(page); // the user tries again
    await toast(page, pt('users.renew.success'));
    await expect.poll(() => credits(page), POLL).toBe('8');

    expect(keys).toHaveLength(2);
    expect(keys[0], 'an Idempotency-Key was sent').toMatch(/\S{16,}/);
    expect(keys[1], 'the retry of the same action sends the same key').toBe(keys[0]);
    expect((await reseller.profile()).credits).toBe(8);
    expect((await reseller.get<Line>(`/users/${line.id}`)).exp_date, 'renewed once').toBe(renewedOnce.exp_date);
    const ledger = await s.admin.get<LedgerPage>(`/resellers/${reseller.user.id}/ledger?per=100`);
    expect(ledger.data.filter((r) => r.line_id === line.id && r.delta < 0).map((r) => r.delta), 'the creation and one renewal').toEqual([-1, -1]);

    // A new intent (the renewal succeeded): the next flash renew is charged again, with a new key.
    await flash(page);
    await expect.poll(() => credits(page), POLL).toBe('7');
    expect(keys).toHaveLength(3);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
