import { afterAll, describe, expect, test } from 'vitest';
import { byTestId, clickMenuEntry, downloadBytes, signInUi, toast, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';
import { startMercadoPago } from '../support/mercadopago.ts';

// A reseller on a phone sets PIX up from the menu; a customer on a phone signs in on /minha-conta,
// renews by PIX (Mercado Pago is a stand-in on a socket that approves and notifies, signed), and
// sees the line renewed; the reseller's list shows the payment applied.

const POLL = { timeout: 15_000, interval: 200 };
const TOKEN = 'APP_USR-e2e-stand-in-token';
const SECRET = 'e2e-webhook-secret';

const mp = await startMercadoPago({ token: TOKEN, secret: SECRET, codePrefix: 'PIXE2E', firstId: 77_000_000_001 });
const MP_URL = mp.url;
const approveAndNotify = (baseUrl: string, id: number) => mp.approveAndNotify(baseUrl, id);
afterAll(() => mp.close());

describe('PIX renewal', () => {
  const s = useE2eSuite({ env: { MERCADOPAGO_API_URL: MP_URL, PUBLIC_URL: 'http://painel.example' } });

  test('a reseller sets PIX up on a phone; a customer renews a line by PIX and sees it renewed', async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    const r = await s.admin.createReseller({ type: 'reseller', credits: 5 });

    // the reseller: Pagamentos PIX from the menu, credentials and a price, on
    const page = await s.page({ viewport: { width: 375, height: 740 } });
    await signInUi(page, r.username, r.password);
    await clickMenuEntry(page, '/payments');
    await byTestId(page, 'payments-token').fill(TOKEN);
    await byTestId(page, 'payments-secret').fill(SECRET);
    await byTestId(page, `payments-price-${pkg.id}`).fill('35,00');
    await byTestId(page, 'payments-enabled').check();
    await byTestId(page, 'payments-save').click();
    await toast(page, tr('pt-BR', 'payments.saved'));
    expect(await page.content()).not.toContain(TOKEN);
    expect(await visibleText(byTestId(page, 'payments-notification-url'))).toContain('/api/payments/mercadopago/webhook?reseller=');

    // a line of the reseller's, sold through the panel's API
    const sold = await fetch(`${s.server.baseUrl}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await tokenOf(s.server.baseUrl, r.username, r.password)}`, 'idempotency-key': uniqueName('sale-') },
      body: JSON.stringify({ package_id: pkg.id, password: 'cliente123' }),
    });
    expect(sold.status).toBe(201);
    const line = (await sold.json()) as { id: number; username: string; exp_date: number };

    // the customer, on a phone: /minha-conta, signs in with the app's credentials, renews by PIX
    const phone = await s.page({ viewport: { width: 375, height: 740 } });
    await phone.goto(`${s.server.baseUrl}/minha-conta`);
    await byTestId(phone, 'customer-username').fill(line.username);
    await byTestId(phone, 'customer-password').fill('cliente123');
    await byTestId(phone, 'customer-sign-in').click();
    await expect.poll(() => visibleText(byTestId(phone, 'customer-line-username')), POLL).toBe(line.username);
    await byTestId(phone, `customer-offer-${pkg.id}`).click();
    await expect.poll(() => visibleText(byTestId(phone, 'customer-pix-code')), POLL).toMatch(/^00020126PIXE2E\d+$/);
    const mpId = Number((await visibleText(byTestId(phone, 'customer-pix-code'))).replace('00020126PIXE2E', ''));
    expect(await visibleText(byTestId(phone, 'customer-countdown'))).toMatch(/\d\d:\d\d/);

    // Mercado Pago approves and notifies; the page follows and says until when
    expect(await approveAndNotify(s.server.baseUrl, mpId)).toBe(200);
    await expect.poll(() => visibleText(byTestId(phone, 'customer-renewed')), POLL).toContain(tr('pt-BR', 'customer.paid'));

    // the reseller's list: applied, and one credit less
    await clickMenuEntry(page, '/');
    await clickMenuEntry(page, '/payments');
    await waitForPath(page, '/payments');
    await expect.poll(async () => (await visibleText(byTestId(page, 'payments-table'))).toLowerCase(), POLL).toContain(tr('pt-BR', 'payments.statuses.applied').toLowerCase());
    expect(await visibleText(byTestId(page, 'payments-table'))).toContain(line.username);

    // ...and the list, filtered on renewed payments, downloads as CSV with that payment
    await byTestId(page, 'payments-filter-status').click();
    await page.getByRole('option', { name: tr('pt-BR', 'payments.statuses.applied'), exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('status'), POLL).toBe('applied');
    await byTestId(page, 'payments-export').click();
    const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'payments-export-csv').click()]);
    const rows = (await downloadBytes(download)).toString('utf8').slice(1).split('\r\n').filter(Boolean).map((l) => l.split(';'));
    expect(rows).toHaveLength(2);
    expect(rows[1]?.slice(1, 5)).toEqual([line.username, pkg.package_name, '35,00', 'Renovado']);
  });
});

async function tokenOf(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  return ((await res.json()) as { token: string }).token;
}
