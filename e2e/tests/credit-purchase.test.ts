import { afterAll, describe, expect, test } from 'vitest';
import { byTestId, signInUi, tr, useE2eSuite, visibleText } from '../support/index.ts';
import { startMercadoPago } from '../support/mercadopago.ts';

// A reseller on a phone buys credits from its master by PIX: "Comprar créditos" beside its
// balance, the master's price, the QR code; Mercado Pago (a stand-in on a socket) approves and
// notifies, signed; the page says the credits were added and the balance shows them.

const POLL = { timeout: 15_000, interval: 200 };
const TOKEN = 'APP_USR-e2e-credit-sales-token';
const SECRET = 'e2e-credit-sales-secret';

const mp = await startMercadoPago({ token: TOKEN, secret: SECRET, codePrefix: 'PIXCP', firstId: 78_000_000_001 });
const MP_URL = mp.url;
const approveAndNotify = (baseUrl: string, id: number) => mp.approveAndNotify(baseUrl, id);
afterAll(() => mp.close());

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
    expect(mp.charge(mpId)).toMatchObject({ transaction_amount: 30, external_reference: expect.stringMatching(/^cp-\d+$/) });

    expect(await approveAndNotify(s.server.baseUrl, mpId)).toBe(200);
    await expect.poll(() => visibleText(byTestId(page, 'buy-credits-applied')), POLL).toContain(tr('pt-BR', 'creditSales.applied'));
    await expect.poll(() => visibleText(byTestId(page, 'topbar-credits')), POLL).toBe('22');
    expect(await visibleText(byTestId(page, 'buy-credits-applied'))).toContain('22');
    await byTestId(page, 'buy-credits-close').click();
    await expect.poll(async () => (await visibleText(byTestId(page, 'credit-purchases-table'))).toLowerCase(), POLL).toContain(tr('pt-BR', 'creditSales.statuses.applied').toLowerCase());
  });
});
