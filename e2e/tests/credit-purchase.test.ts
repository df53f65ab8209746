import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { byTestId, signInUi, tr, useE2eSuite, visibleText } from '../support/index.ts';

// A reseller on a phone buys credits from its master by PIX: "Comprar créditos" beside its
// balance, the master's price, the QR code; Mercado Pago (a stand-in on a socket) approves and
// notifies, signed; the page says the credits were added and the balance shows them.

const POLL = { timeout: 15_000, interval: 200 };
const TOKEN = 'APP_USR-e2e-credit-sales-token';
const SECRET = 'e2e-credit-sales-secret';

const charges = new Map<number, { id: number; status: string; external_reference: string; transaction_amount: number; currency_id: string; notification_url: string }>();
let nextId = 78_000_000_001;
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
      return json(201, { ...p, point_of_interaction: { transaction_data: { qr_code: `00020126PIXCP${p.id}`, qr_code_base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' } } });
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

describe('credit purchase by PIX', () => {
  const s = useE2eSuite({ env: { MERCADOPAGO_API_URL: MP_URL, PUBLIC_URL: 'http://painel.example' } });

  test('a reseller on a phone buys credits from its master and sees them added', async () => {
    const master = await s.admin.createAndSignIn({ type: 'master', credits: 100 });
    await master.put('/payments/settings', { mercadopago_access_token: TOKEN, mercadopago_webhook_secret: SECRET });
    await master.put('/credit-sales/settings', { enabled: true, price_cents_per_credit: 150, min_credits: 10 });
    const r = await master.createReseller({ type: 'reseller', credits: 2 });

    const page = await s.page({ viewport: { width: 375, height: 740 } });
    await signInUi(page, r.username, r.password);
    expect(await visibleText(byTestId(page, 'topbar-credits'))).toBe('2');
    await byTestId(page, 'topbar-buy-credits').click();
    await expect.poll(() => visibleText(byTestId(page, 'buy-credits-price')), POLL).toContain('1,50');
    await byTestId(page, 'buy-credits-amount').fill('20');
    await expect.poll(() => visibleText(byTestId(page, 'buy-credits-total')), POLL).toContain('30,00');
    await byTestId(page, 'buy-credits-submit').click();
    await expect.poll(() => visibleText(byTestId(page, 'buy-credits-code')), POLL).toMatch(/^00020126PIXCP\d+$/);
    await byTestId(page, 'buy-credits-qr').waitFor();
    const mpId = Number((await visibleText(byTestId(page, 'buy-credits-code'))).replace('00020126PIXCP', ''));
    expect(charges.get(mpId)).toMatchObject({ transaction_amount: 30, external_reference: expect.stringMatching(/^cp-\d+$/) });

    expect(await approveAndNotify(s.server.baseUrl, mpId)).toBe(200);
    await expect.poll(() => visibleText(byTestId(page, 'buy-credits-applied')), POLL).toContain(tr('pt-BR', 'creditSales.applied'));
    await expect.poll(() => visibleText(byTestId(page, 'topbar-credits')), POLL).toBe('22');
    expect(await visibleText(byTestId(page, 'buy-credits-applied'))).toContain('22');
    await byTestId(page, 'buy-credits-close').click();
    await expect.poll(async () => (await visibleText(byTestId(page, 'credit-purchases-table'))).toLowerCase(), POLL).toContain(tr('pt-BR', 'creditSales.statuses.applied').toLowerCase());
  });
});
