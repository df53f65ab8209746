import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { startMercadoPago } from '../../server/test/standins/mercadopago.ts';
import { Api, byTestId, signInWithToken, tr, uniqueName, useE2eSuite, visibleText } from '../support/index.ts';

// The customer page on a phone (375 px), in Portuguese: a PIX charge Mercado Pago does not make
// shows a spinner, then says in place what to do with the reseller's WhatsApp, and is "failed" in
// the reseller's list until the same press retries it; an offer of another package says it changes
// the plan; a blocked line is offered no PIX; without PIX the reseller's WhatsApp is the contact,
// never their username; the tab is titled by the page.

const POLL = { timeout: 15_000, interval: 200 };
const PHONE = { viewport: { width: 375, height: 740 } };
const TOKEN = 'APP_USR-e2e-phone-customer';
const SECRET = 'e2e-phone-customer-secret';
const WHATSAPP = '(11) 98888-7777';

const mp = await startMercadoPago(TOKEN);
afterAll(() => mp.close());

describe('the customer page on a phone', () => {
  const s = useE2eSuite({ env: { MERCADOPAGO_API_URL: mp.url, PUBLIC_URL: 'http://painel.example' } });

  async function packages() {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const monthly = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    const quarterly = await s.admin.createPackage({ package_name: uniqueName('Trimestral '), official_duration: 3, bouquets: [String(bouquet.id)] });
    return { monthly, quarterly };
  }
  /** A reseller with a WhatsApp number and credits; with `pix`, PIX on at that price for that package. */
  async function reseller(pix?: { packageId: number; cents: number }) {
    const r = await s.admin.createReseller({ type: 'reseller', credits: 10, whatsapp: WHATSAPP });
    const api = await Api.signIn(s.server.baseUrl, r.username, r.password);
    if (pix) await api.put('/payments/settings', { enabled: true, mercadopago_access_token: TOKEN, mercadopago_webhook_secret: SECRET, prices: [{ package_id: pix.packageId, price_cents: pix.cents }] });
    return { r, api };
  }
  async function sellLine(api: Api, packageId: number) {
    return api.request<{ id: number; username: string }>('POST', '/users', { package_id: packageId, password: 'cliente123' }, { 'idempotency-key': uniqueName('sale-') });
  }
  async function customerSignsIn(username: string): Promise<Page> {
    const phone = await s.page(PHONE);
    await phone.goto(`${s.server.baseUrl}/minha-conta`);
    await byTestId(phone, 'customer-username').fill(username);
    await byTestId(phone, 'customer-password').fill('cliente123');
    await byTestId(phone, 'customer-sign-in').click();
    await expect.poll(() => visibleText(byTestId(phone, 'customer-line-username')), POLL).toBe(username);
    return phone;
  }
  const whatsappHref = (page: Page) => byTestId(page, 'customer-whatsapp').getAttribute('href');

  test('a failed PIX charge shows a spinner, then what to do, is failed to the reseller, and the same press retries it', async () => {
    const { monthly, quarterly } = await packages();
    const { api } = await reseller({ packageId: monthly.id, cents: 3500 });
    const line = await sellLine(api, quarterly.id);
    const phone = await customerSignsIn(line.username);
    expect(await phone.title()).toBe(tr('pt-BR', 'customer.title'));

    // the quarterly line is offered the monthly package: it says that changes its plan
    expect(await visibleText(byTestId(phone, `customer-offer-${monthly.id}-changes`))).toBe(tr('pt-BR', 'customer.changesPlan', { from: quarterly.package_name, to: monthly.package_name }));

    // Mercado Pago does not make the charge; the answer is held so the spinner can be seen
    mp.failCreates(500);
    let release = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    await phone.route('**/api/customer/payments', async (route) => {
      await held;
      await route.continue();
    });
    const offer = byTestId(phone, `customer-offer-${monthly.id}`);
    await offer.click();
    await expect.poll(() => offer.getAttribute('data-loading'), POLL).toBe('true');
    release();
    await expect.poll(() => visibleText(byTestId(phone, 'customer-charge-error')), POLL).toBe(tr('pt-BR', 'customer.errors.UPSTREAM_ERROR'));
    expect(await whatsappHref(phone)).toMatch(/^https:\/\/wa\.me\/5511988887777\?text=/);
    await phone.unroute('**/api/customer/payments');

    // the reseller's list (on a phone too) shows it failed, not waiting for payment
    const panel = await s.page(PHONE);
    await signInWithToken(panel, api.token, `/payments?line=${line.username}`);
    const listed = async () => (await visibleText(byTestId(panel, 'payments-table'))).toLowerCase(); // badges are upper-case
    await expect.poll(listed, POLL).toContain(tr('pt-BR', 'payments.statuses.failed').toLowerCase());
    expect(await listed()).not.toContain(tr('pt-BR', 'payments.statuses.pending').toLowerCase());

    // Mercado Pago answers again: the same press makes the charge, on the same row
    mp.failCreates();
    await offer.click();
    await expect.poll(() => visibleText(byTestId(phone, 'customer-pix-code')), POLL).toMatch(/^00020126PIX\d+$/);
    const rows = await api.get<{ data: { status: string }[] }>(`/payments?line=${line.username}`);
    expect(rows.data.map((p) => p.status)).toEqual(['pending']);
  });

  test('a blocked line is offered no PIX; without PIX the contact is the WhatsApp, not a username', async () => {
    const { monthly } = await packages();
    const withPix = await reseller({ packageId: monthly.id, cents: 3500 });
    const blocked = await sellLine(withPix.api, monthly.id);
    await withPix.api.post(`/users/${blocked.id}/block`);
    const phone = await customerSignsIn(blocked.username);
    expect(await visibleText(byTestId(phone, 'customer-blocked'))).toContain(tr('pt-BR', 'customer.blockedHelp'));
    expect(await byTestId(phone, `customer-offer-${monthly.id}`).count()).toBe(0);
    expect(await phone.getByText(tr('pt-BR', 'customer.renew')).count()).toBe(0);
    expect(await whatsappHref(phone)).toMatch(/^https:\/\/wa\.me\/5511988887777\?text=/);

    const noPix = await reseller();
    const line = await sellLine(noPix.api, monthly.id);
    const other = await customerSignsIn(line.username);
    const says = await visibleText(byTestId(other, 'customer-no-pix'));
    expect(says).toContain(tr('pt-BR', 'customer.talkToReseller'));
    expect(says).not.toContain(noPix.r.username);
    expect(await whatsappHref(other)).toMatch(/^https:\/\/wa\.me\/5511988887777\?text=/);
  });
});
