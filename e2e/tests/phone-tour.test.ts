import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { Api, byTestId, lineAction, signInWithToken, toast, tr, uniqueName, useE2eSuite, visibleText } from '../support/index.ts';

// A plain reseller's tour of the panel on a phone (375 px), in Portuguese: the reminders page says
// what is wrong (no channel, a gateway that does not answer) and sends no dangling "fale comigo:";
// the texts count in words ("1 mês"), an expired line's message says "venceu" and carries the PIX
// renewal link; the dashboard shows its chart early and no resellers cards; toasts stay at the top.

const POLL = { timeout: 15_000, interval: 200 };
const PHONE = { width: 375, height: 740 };
const DAY = 86_400;
const KEY = 'evolution-tour-key';

/** An Evolution API instance that answers the connection check: {instance: {state: 'open'}}. */
const gateway = http.createServer((req, res) => {
  const m = /^\/instance\/connectionState\/([^/]+)$/.exec(req.url ?? '');
  if (!m || req.headers.apikey !== KEY) return res.writeHead(401).end();
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ instance: { instanceName: m[1], state: 'open' } }));
});
const listening = new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
afterAll(() => new Promise<void>((r) => gateway.close(() => r())));

/** A local port nothing listens on: a gateway that refuses the connection. */
async function deadUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

async function box(locator: Locator) {
  const b = await locator.first().boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

const overlaps = (a: { y: number; height: number }, b: { y: number; height: number }) => a.y < b.y + b.height && b.y < a.y + a.height;

async function pickOption(page: Page, inputTestId: string, label: string): Promise<void> {
  await byTestId(page, inputTestId).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

describe('a phone tour of the reseller pages', () => {
  const s = useE2eSuite({ env: { OUTBOUND_ALLOW_NETWORKS: '127.0.0.1/32', PUBLIC_URL: 'http://painel.example' } });

  async function plainReseller(credits = 0) {
    const r = await s.admin.createReseller({ type: 'reseller', credits });
    return Api.signIn(s.server.baseUrl, r.username, r.password);
  }

  test('reminders: no turning on without a channel, the gateway checked and its failure said, rows and a preview without a dangling "fale comigo:"', async () => {
    await listening;
    const reseller = await plainReseller();
    const page = await s.page({ viewport: PHONE });
    await signInWithToken(page, reseller.token, '/reminders');
    // the badge's words as written (its CSS shows them in capitals)
    const status = async () => (await byTestId(page, 'reminders-whatsapp-status').textContent())?.trim();
    await expect.poll(() => status(), POLL).toBe(tr('pt-BR', 'reminders.notReady'));

    // the message box shows its rows, not one input line
    expect((await box(byTestId(page, 'reminders-template'))).height).toBeGreaterThan(100);
    // no WhatsApp of the reseller's, no PIX: the preview leaves both parts out
    await byTestId(page, 'reminders-preview').click();
    const preview = byTestId(page, 'reminders-preview-text');
    await expect.poll(() => visibleText(preview), POLL).toContain('vence em 3 dias');
    expect((await visibleText(preview)).toLowerCase()).not.toMatch(/fale comigo|renove|dia\(s\)/);

    // on with no channel: refused, in Portuguese, under the switch it names (a field's error is not toasted)
    await byTestId(page, 'reminders-enabled').check();
    const save = byTestId(page, 'reminders-save');
    await save.click();
    const refusal = tr('pt-BR', 'errors.REMINDERS_NO_CHANNEL');
    await page.getByText(refusal).first().waitFor();
    expect(await page.locator('.mantine-Notification-root', { hasText: refusal }).count()).toBe(0);
    await page.reload();
    await expect.poll(() => status(), POLL).toBe(tr('pt-BR', 'reminders.notReady'));
    expect(await byTestId(page, 'reminders-enabled').isChecked()).toBe(false);

    // a gateway that refuses connections: "Sem resposta", and the test says why
    const refused = tr('pt-BR', 'reminders.failures.refused', { system: tr('pt-BR', 'reminders.systems.whatsapp') });
    await byTestId(page, 'reminders-base-url').fill(await deadUrl());
    await byTestId(page, 'reminders-instance').fill('loja');
    await byTestId(page, 'reminders-api-key').fill(KEY);
    await save.click();
    // the toast is at the top, clear of the button that was pressed
    await toast(page, tr('pt-BR', 'reminders.saved'));
    const shown = await box(page.locator('.mantine-Notification-root', { hasText: tr('pt-BR', 'reminders.saved') }));
    expect(shown.y).toBeLessThan(PHONE.height / 3);
    expect(overlaps(shown, await box(save))).toBe(false);
    await expect.poll(() => status(), POLL).toBe(tr('pt-BR', 'reminders.noAnswer'));
    expect(await visibleText(byTestId(page, 'reminders-whatsapp-failure'))).toBe(refused);
    await byTestId(page, 'reminders-test-whatsapp-to').fill('11 98888-0000');
    await byTestId(page, 'reminders-test-whatsapp').click();
    await expect.poll(() => visibleText(byTestId(page, 'reminders-test-whatsapp-failure')), POLL).toContain(refused);

    // the gateway that answers: "Pronto" (the key saved before is kept)
    await byTestId(page, 'reminders-base-url').fill(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}`);
    await save.click();
    await expect.poll(() => status(), POLL).toBe(tr('pt-BR', 'reminders.ready'));
  });

  test('texts: units counted in words, Portuguese wording, an expired line "venceu", the PIX renewal link, the API docs linked', async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    const reseller = await plainReseller(10);
    await reseller.put('/payments/settings', {
      enabled: true,
      mercadopago_access_token: 'APP_USR-tour',
      mercadopago_webhook_secret: 'whsec-tour',
      prices: [{ package_id: pkg.id, price_cents: 2500 }],
    });
    const line = await reseller.post<{ id: number; username: string }>('/users', { package_id: pkg.id, whatsapp: '11 91234-0009' });
    const silent = await reseller.post<{ id: number }>('/users', { package_id: pkg.id });
    const page = await s.page({ viewport: PHONE });

    // "1 mês", never "1 mês(es)"
    await signInWithToken(page, reseller.token, '/users/add');
    await pickOption(page, 'user-package', pkg.package_name);
    await expect.poll(() => visibleText(byTestId(page, 'user-cost')), POLL).toContain('1 mês');
    expect(await visibleText(byTestId(page, 'user-cost'))).not.toContain('(es)');

    // no number: how to add one, in proper Portuguese
    await page.goto('/users');
    await lineAction(page, silent.id, 'whatsapp');
    await toast(page, 'clique em Editar usuário');

    // a month ahead the line has expired: the warning says "venceu" and carries the renewal link
    await page.clock.setSystemTime(new Date(Date.now() + 40 * DAY * 1000));
    await lineAction(page, line.id, 'whatsapp');
    const modal = byTestId(page, 'whatsapp-modal');
    expect(await visibleText(modal)).toContain(tr('pt-BR', 'whatsapp.warningLabel'));
    await byTestId(page, 'whatsapp-warning-yes').click();
    const message = byTestId(page, 'whatsapp-preview');
    await expect.poll(() => visibleText(message), POLL).toMatch(/Renove pelo PIX: http:\/\/painel\.example\/minha-conta\?t=\S+/);
    expect(await visibleText(message)).toContain('venceu em');
    expect(await visibleText(message)).not.toContain('vence em');
    expect(decodeURIComponent((await byTestId(page, 'whatsapp-send').getAttribute('href')) ?? '')).toContain('/minha-conta?t=');
    await page.keyboard.press('Escape');

    // the API page links the documentation this panel serves
    await page.goto('/profile/api');
    const docs = byTestId(page, 'api-docs-link');
    expect(await docs.getAttribute('href')).toBe('/api/docs');
    expect(await visibleText(byTestId(page, 'api-docs-link'))).toBe(tr('pt-BR', 'apiKeys.docsLink'));
    expect((await page.request.get(new URL('/api/docs/', page.url()).toString())).status()).toBe(200);
  });

  test('dashboard: the chart before the expirations, within two screens; no resellers cards for a plain reseller', async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    const reseller = await plainReseller(10);
    for (let i = 0; i < 10; i++) await reseller.post('/users', { package_id: pkg.id });
    const page = await s.page({ viewport: PHONE });
    await signInWithToken(page, reseller.token, '/');
    await byTestId(page, 'card-users-value').waitFor();
    await byTestId(page, 'expiring-date').first().waitFor();
    expect(await byTestId(page, 'card-resellers').count()).toBe(0);
    expect(await byTestId(page, 'card-users_online_of_resellers').count()).toBe(0);

    const chart = page.locator('[data-testid="activity-chart"], [data-testid="activity-loading"]');
    const chartTop = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="activity-chart"], [data-testid="activity-loading"]');
      return el ? el.getBoundingClientRect().top + window.scrollY : Number.POSITIVE_INFINITY;
    });
    const expirationsTop = await page.evaluate(() => (document.querySelector('[data-testid="expirations"]')?.getBoundingClientRect().top ?? 0) + window.scrollY);
    expect(await chart.count()).toBe(1);
    expect(chartTop).toBeLessThan(expirationsTop);
    expect(chartTop).toBeLessThan(2 * PHONE.height);
  });
});
