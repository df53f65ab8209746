import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { byTestId, signInUi, statusOf, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

const POLL = { timeout: 10_000, interval: 100 };

/** The key id a table row (`api-key-row-<id>`) stands for. */
const keyId = async (row: import('playwright-core').Locator) => (await row.getAttribute('data-testid'))?.replace('api-key-row-', '');

describe('API keys', () => {
  // the webhook receiver below listens on 127.0.0.1: the panel may post there
  const s = useE2eSuite({ env: { OUTBOUND_ALLOW_NETWORKS: '127.0.0.1/32' } });

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
    // its permissions in words (badges show capitals)
    expect((await visibleText(byTestId(page, 'api-keys-table'))).toLowerCase()).toContain(tr('pt-BR', 'apiKeys.scope.lines_write').toLowerCase());

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

  test('a webhook created on the page gets a signed test event, and its delivery shows as delivered', async () => {
    const got: { id: string; sig: string; raw: string }[] = [];
    const server = http.createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c) => parts.push(c));
      req.on('end', () => {
        got.push({ id: String(req.headers['webhook-id']), sig: String(req.headers['webhook-signature']), raw: Buffer.concat(parts).toString() });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
      const r = await s.admin.createReseller({ type: 'reseller' });
      const page = await s.page();
      await signInUi(page, r.username, r.password);
      await byTestId(page, 'user-menu').click();
      await byTestId(page, 'menu-api-keys').click();
      await waitForPath(page, '/profile/api');

      await byTestId(page, 'webhook-create').click();
      await byTestId(page, 'webhook-url').fill(url);
      await byTestId(page, 'webhook-save').click();
      const secret = (await visibleText(byTestId(page, 'webhook-secret'))).trim();
      expect(secret).toMatch(/^whsec_/);
      await byTestId(page, 'webhook-secret-done').click();
      const row = page.locator('[data-testid^="webhook-row-"]').first();
      await expect.poll(() => visibleText(row), POLL).toContain(url);

      // "send a test": the receiver gets it signed with the secret, the deliveries list says delivered
      await row.locator('[data-testid^="webhook-test-"]').click();
      await expect.poll(() => got.length, POLL).toBe(1);
      const [first] = got as [(typeof got)[number]];
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(first.sig);
      expect(m?.[2]).toBe(createHmac('sha256', secret).update(`${m?.[1]}.${first.raw}`).digest('hex'));
      expect(JSON.parse(first.raw)).toMatchObject({ id: first.id, type: 'webhook.test' });
      const deliveries = byTestId(page, 'webhook-deliveries');
      await expect
        .poll(async () => (await visibleText(deliveries)).toLowerCase(), { timeout: 15_000, interval: 200 })
        .toContain(tr('pt-BR', 'apiKeys.webhooks.states.delivered').toLowerCase());
      expect(await visibleText(deliveries)).toContain(tr('pt-BR', 'apiKeys.webhooks.event.webhook_test'));
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
