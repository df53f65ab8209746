import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { byTestId, clickMenuEntry, downloadBytes, signInUi, toast, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

// A reseller on a phone sets PIX up from the menu; a customer on a phone signs in on /minha-conta,
// renews by PIX (Mercado Pago is a stand-in on a socket that approves and notifies, signed), and
// sees the line renewed; the reseller's list shows the payment applied.

const POLL = { timeout: 15_000, interval: 200 };
const TOKEN = 'APP_USR-e2e-stand-in-token';
const SECRET = 'e2e-webhook-secret';

/** Mercado Pago's payments API: PIX charges, a payment's state; `notify` sends its signed notification. */
const charges = new Map<number, { id: number; status: string; external_reference: string; transaction_amount: number; currency_id: string; notification_url: string }>();
let nextId = 77_000_000_001;
const mp = http.createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(401, {});
    if (req.method === 'POST' && req.url === '/v1/payments') {
      const b = JSON.parse(Buffer.concat(parts).toString());
      const p = { id: nextId++, status: 'pending', external_reference: b.external_reference, transaction_amount: b.transaction_amount, currency_id: 'BRL', notification_url: b.notification_url };
      charges.set(p.id, p);
      return json(201, { ...p, point_of_interaction: { transaction_data: { qr_code: `00020126PIXE2E${p.id}`, qr_code_base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' } } });
    }
    const m = /^\/v1\/payments\/(\d+)$/.exec(req.url ?? '');
    const p = m ? charges.get(Number(m[1])) : undefined;
    return p ? json(200, p) : json(404, {});
  });
});
await new Promise<void>((r) => mp.listen(0, '127.0.0.1', r));
const MP_URL = `http://127.0.0.1:${(mp.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((r) => mp.close(() => r())));

/** Mercado Pago approves the charge and notifies the panel (its PUBLIC_URL is not this server: the path is). */
async function approveAndNotify(baseUrl: string, id: number): Promise<number> {
  const p = charges.get(id)!;
  p.status = 'approved';
  const url = new URL(p.notification_url);
  url.searchParams.set('data.id', String(id));
  url.searchParams.set('type', 'payment');
  const requestId = randomUUID();
  const ts = String(Math.floor(Date.now() / 1000));
  const v1 = createHmac('sha256', SECRET).update(`id:${id};request-id:${requestId};ts:${ts};`).digest('hex');
  const res = await fetch(`${baseUrl}${url.pathname}${url.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId },
    body: JSON.stringify({ action: 'payment.updated', type: 'payment', data: { id: String(id) } }),
  });
  return res.status;
}

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
