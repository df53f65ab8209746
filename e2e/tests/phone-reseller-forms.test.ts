import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { byTestId, signInWithToken, tr, uniqueName, useE2eSuite, visibleText } from '../support/index.ts';

// A reseller's forms on a phone, in Portuguese: a refused field is said under that input in the
// user's language (the answer's `reason`), not in English and not again in a toast; a webhook to a
// local address is refused before any secret is shown; PIX cannot be turned on half set up, and says
// when Mercado Pago cannot reach the panel.

const PHONE = { viewport: { width: 375, height: 740 } };
const POLL = { timeout: 10_000, interval: 100 };

/** The error Mantine shows under the input with this test id. */
const errorUnder = (page: Page, testId: string): Locator => page.locator('.mantine-InputWrapper-root', { has: byTestId(page, testId) }).locator('.mantine-InputWrapper-error');
/** How many toasts are on screen, a moment after the field's error appeared (a toast would come first). */
async function toastCount(page: Page): Promise<number> {
  await page.waitForTimeout(300);
  return page.locator('.mantine-Notification-root').count();
}

describe('reseller forms on a phone', () => {
  // a notification URL Mercado Pago cannot reach; no OUTBOUND_ALLOW_NETWORKS: loopback is refused
  const s = useE2eSuite({ env: { PUBLIC_URL: 'http://127.0.0.1:9' } });

  test('webhook to a local address and API key addresses: refused under the field, in Portuguese, no toast, nothing created', async () => {
    const r = await s.admin.createAndSignIn({ type: 'reseller' });
    const page = await s.page(PHONE);
    await signInWithToken(page, r.token, '/profile/api');

    await byTestId(page, 'webhook-create').click();
    await byTestId(page, 'webhook-url').fill('https://127.0.0.1:9/x');
    await byTestId(page, 'webhook-save').click();
    await expect.poll(() => visibleText(errorUnder(page, 'webhook-url')), POLL).toBe(tr('pt-BR', 'errors.reasons.NOT_PUBLIC'));
    expect(await byTestId(page, 'webhook-secret').count()).toBe(0);
    expect(await toastCount(page)).toBe(0);
    await page.keyboard.press('Escape');
    const hooks = await fetch(`${s.server.baseUrl}/api/webhooks`, { headers: { authorization: `Bearer ${r.token}` } });
    expect(((await hooks.json()) as { data: unknown[] }).data).toEqual([]);

    await byTestId(page, 'api-key-create').click();
    await byTestId(page, 'api-key-name').fill('Robô');
    await byTestId(page, 'api-key-ips').fill('abc');
    await byTestId(page, 'api-key-save').click();
    await expect.poll(() => visibleText(errorUnder(page, 'api-key-ips')), POLL).toBe(tr('pt-BR', 'errors.reasons.NOT_ADDRESS'));
    expect(await visibleText(errorUnder(page, 'api-key-ips'))).not.toContain('allowed_ips');
    expect(await toastCount(page)).toBe(0);
  });

  test('reminders: a WhatsApp gateway on http is refused under its input (a nested path), in Portuguese, no toast', async () => {
    const r = await s.admin.createAndSignIn({ type: 'reseller' });
    const page = await s.page(PHONE);
    await signInWithToken(page, r.token, '/reminders');
    await byTestId(page, 'reminders-base-url').fill('http://gateway.example.com');
    await byTestId(page, 'reminders-save').click();
    await expect.poll(() => visibleText(errorUnder(page, 'reminders-base-url')), POLL).toBe(tr('pt-BR', 'errors.reasons.NOT_HTTPS'));
    expect(await visibleText(errorUnder(page, 'reminders-base-url'))).not.toContain('channels.whatsapp');
    expect(await toastCount(page)).toBe(0);
  });

  test('PIX: cannot be turned on without token, secret and a price; prices look empty; unreachable notification URL is said', async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    const r = await s.admin.createAndSignIn({ type: 'reseller' });
    const page = await s.page(PHONE);
    await signInWithToken(page, r.token, '/payments');

    // an empty price field has no price-like placeholder, and says what empty means
    const price = byTestId(page, `payments-price-${pkg.id}`);
    await price.waitFor();
    expect(await price.getAttribute('placeholder')).toBeNull();
    expect(await visibleText(page.locator('.mantine-InputWrapper-root', { has: price }))).toContain(tr('pt-BR', 'payments.priceDescription'));
    // PUBLIC_URL on http://127.0.0.1: Mercado Pago cannot notify it
    expect(await visibleText(byTestId(page, 'payments-notification-unreachable'))).toBe(tr('pt-BR', 'payments.notificationUnreachable'));

    // on with nothing set: refused under the token, then the secret, then the prices
    await byTestId(page, 'payments-enabled').check();
    await byTestId(page, 'payments-save').click();
    await expect.poll(() => visibleText(errorUnder(page, 'payments-token')), POLL).toBe(tr('pt-BR', 'errors.reasons.REQUIRED_TO_ENABLE'));
    await byTestId(page, 'payments-token').fill('APP_USR-0123456789-e2e');
    await byTestId(page, 'payments-save').click();
    await expect.poll(() => visibleText(errorUnder(page, 'payments-secret')), POLL).toBe(tr('pt-BR', 'errors.reasons.REQUIRED_TO_ENABLE'));
    await byTestId(page, 'payments-secret').fill('mp-secret-0123');
    await byTestId(page, 'payments-save').click();
    await expect.poll(() => visibleText(byTestId(page, 'payments-prices-error')), POLL).toBe(tr('pt-BR', 'errors.reasons.REQUIRED_TO_ENABLE'));
    expect(await toastCount(page)).toBe(0);
    const settings = await fetch(`${s.server.baseUrl}/api/payments/settings`, { headers: { authorization: `Bearer ${r.token}` } });
    expect(await settings.json()).toMatchObject({ enabled: false, mercadopago_access_token_set: false });
  });
});
