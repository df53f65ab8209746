import { describe, expect, test } from 'vitest';
import { byTestId, signInUi, statusOf, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

const POLL = { timeout: 10_000, interval: 100 };

/** The key id a table row (`api-key-row-<id>`) stands for. */
const keyId = async (row: import('playwright-core').Locator) => (await row.getAttribute('data-testid'))?.replace('api-key-row-', '');

describe('API keys', () => {
  const s = useE2eSuite();

  test('a reseller on a phone creates a key from the user menu, a program sells a line with it, the key is revoked', async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    const r = await s.admin.createReseller({ type: 'reseller', credits: 5 });
    const page = await s.page({ viewport: { width: 375, height: 740 } });
    await signInUi(page, r.username, r.password);

    // through the user menu, as a person would
    await byTestId(page, 'user-menu').click();
    await byTestId(page, 'menu-api-keys').click();
    await waitForPath(page, '/profile/api');
    await expect.poll(() => visibleText(byTestId(page, 'api-keys-table')), POLL).toContain(tr('pt-BR', 'apiKeys.empty'));

    await byTestId(page, 'api-key-create').click();
    await byTestId(page, 'api-key-name').fill('Robô do WhatsApp');
    await byTestId(page, 'api-key-save').click();
    const secret = (await visibleText(byTestId(page, 'api-key-secret'))).trim();
    expect(secret).toMatch(/^rk_live_[0-9A-Za-z]{43}$/);
    await byTestId(page, 'api-key-done').click();
    await expect.poll(() => visibleText(byTestId(page, 'api-keys-table')), POLL).toContain('Robô do WhatsApp');
    expect(await visibleText(byTestId(page, 'api-keys-table'))).not.toContain(secret);

    // a program sells a line with the key alone (an Idempotency-Key per sale)
    const sale = await fetch(`${s.server.baseUrl}/api/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': uniqueName('sale-') },
      body: JSON.stringify({ package_id: pkg.id }),
    });
    expect(sale.status, await sale.clone().text()).toBe(201);
    const line = (await sale.json()) as { username: string };

    // the page shows its last use once reloaded through the menu; the sale is in the lines list
    await byTestId(page, 'user-menu').click();
    await byTestId(page, 'menu-api-keys').click();
    await page.reload();
    await expect.poll(() => visibleText(byTestId(page, 'api-keys-table')), POLL).not.toContain(tr('pt-BR', 'apiKeys.neverUsed'));

    // revoked from the page: the program is refused at once
    const row = page.locator('[data-testid^="api-key-row-"]').first();
    await row.locator('[data-testid^="api-key-revoke-"]').click();
    await byTestId(page, 'confirm-yes').click();
    // (the badge shows its text in capitals)
    await expect.poll(async () => (await visibleText(byTestId(row, `api-key-status-${await keyId(row)}`))).toLowerCase(), POLL).toBe(tr('pt-BR', 'apiKeys.revoked').toLowerCase());
    expect(await statusOf(s.server.baseUrl, 'GET', `/users?username=${line.username}`, secret)).toBe(401);
  });
});
