import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundUrl } from '../src/lib/ssrf/outbound-url.ts';
import { adminWithPackage, createSignedInReseller } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

// A 400 VALIDATION says the kind of problem beside its field (`reason`, `limits`: docs/api.md,
// "Answers to handle"), for validation() and for schema failures alike; a webhook to an address the
// SSRF guard refuses is refused when created; PIX cannot be turned on half set up.

const PASS = 'Kq7.vX2p_Rz9@tLm';

describe(`field reasons (${ENGINE})`, () => {
  let t: TestContext;
  let pkg: number;
  let reseller: { id: number; token: string };

  beforeAll(async () => {
    // 127.0.0.2 stands for a stand-in the tests may reach; 127.0.0.1 stays refused
    t = await createTestContext({ outboundAllowNetworks: ['127.0.0.2/32'], publicUrl: 'http://127.0.0.1:8080' });
    const { admin, groups, pkg: p } = await adminWithPackage(t);
    pkg = p;
    reseller = await createSignedInReseller(t, admin, { username: 'reasons_res', password: PASS, type: 'reseller', credits: 5, groups });
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: 'POST' | 'PUT', url: string, payload: object) => t.call(reseller.token, { method, url, payload });
  const webhooks = async () => (await t.call(reseller.token, { method: 'GET', url: '/api/webhooks' })).json().data as unknown[];

  it('names the reason of a rule and of a schema failure, with its bound', async () => {
    const ips = await call('POST', '/api/api-keys', { name: 'bot', scopes: ['lines:read'], allowed_ips: ['abc'] });
    expect(ips.statusCode).toBe(400);
    expect(ips.json()).toMatchObject({ code: 'VALIDATION', field: 'allowed_ips', reason: 'NOT_ADDRESS' });

    const long = await call('POST', '/api/api-keys', { name: 'x'.repeat(101), scopes: ['lines:read'] });
    expect(long.json()).toMatchObject({ code: 'VALIDATION', field: 'name', reason: 'TOO_LONG', limits: { max: 100 } });

    const missing = await call('POST', '/api/api-keys', { scopes: ['lines:read'] });
    expect(missing.json()).toMatchObject({ code: 'VALIDATION', field: 'name', reason: 'REQUIRED' });

    const http = await call('POST', '/api/webhooks', { url: 'http://hooks.example.com/x', events: ['line.created'] });
    expect(http.json()).toMatchObject({ code: 'VALIDATION', field: 'url', reason: 'NOT_HTTPS' });

    const base = await call('PUT', '/api/reminders/settings', { channels: { whatsapp: { base_url: 'http://gateway.example.com' } } });
    expect(base.json()).toMatchObject({ code: 'VALIDATION', field: 'channels.whatsapp.base_url', reason: 'NOT_HTTPS' });
  });

  it('refuses a webhook to an address the SSRF guard refuses, creating nothing', async () => {
    for (const url of ['https://127.0.0.1:9/x', 'https://[::1]/x', 'https://10.1.2.3/x', 'https://localhost:9/x', 'http://127.0.0.1:9/x']) {
      const res = await call('POST', '/api/webhooks', { url, events: ['line.created'] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'VALIDATION', field: 'url' });
      expect(res.json().secret, url).toBeUndefined();
    }
    expect((await call('POST', '/api/webhooks', { url: 'https://127.0.0.1:9/x', events: ['line.created'] })).json().reason).toBe('NOT_PUBLIC');
    expect(await webhooks()).toEqual([]);
    // a listed network (OUTBOUND_ALLOW_NETWORKS) stays reachable, http included: the tests' stand-ins
    expect((await call('POST', '/api/webhooks', { url: 'http://127.0.0.2:9/x', events: ['line.created'] })).statusCode).toBe(201);
  });

  it('judges a name by where it resolves, and lets a name that does not resolve through', async () => {
    const answers: Record<string, string[]> = { 'inside.example': ['192.168.1.5'], 'mixed.example': ['8.8.8.8', '10.0.0.1'], 'outside.example': ['8.8.8.8'] };
    const resolve = async (host: string) => {
      if (!answers[host]) throw new Error('ENOTFOUND');
      return answers[host].map((address) => ({ address }));
    };
    const reason = (url: string) =>
      outboundUrl([], url, 'url', resolve).then(
        () => 'ok',
        (e: { reason?: string }) => e.reason,
      );
    expect(await reason('https://inside.example/h')).toBe('NOT_PUBLIC');
    expect(await reason('https://mixed.example/h')).toBe('NOT_PUBLIC');
    expect(await reason('https://outside.example/h')).toBe('ok');
    expect(await reason('https://unknown.example/h')).toBe('ok');
    expect(await reason(`https://outside.example/${'a'.repeat(500)}`)).toBe('TOO_LONG');
    expect(await reason('ftp://outside.example/h')).toBe('NOT_URL');
  });

  it('refuses PIX on without the token, the secret or a price; says when Mercado Pago cannot notify', async () => {
    const put = (payload: object) => call('PUT', '/api/payments/settings', payload);
    const refused = async (payload: object) => (await put(payload)).json();
    expect(await refused({ enabled: true })).toMatchObject({ code: 'VALIDATION', field: 'mercadopago_access_token', reason: 'REQUIRED_TO_ENABLE' });
    expect(await refused({ enabled: true, mercadopago_access_token: 'APP_USR-0123456789' })).toMatchObject({ field: 'mercadopago_webhook_secret', reason: 'REQUIRED_TO_ENABLE' });
    const noPrice = { enabled: true, mercadopago_access_token: 'APP_USR-0123456789', mercadopago_webhook_secret: 'secret-0123', prices: [] };
    expect(await refused(noPrice)).toMatchObject({ field: 'prices', reason: 'REQUIRED_TO_ENABLE' });
    // nothing of a refused call was kept
    const before = (await t.call(reseller.token, { method: 'GET', url: '/api/payments/settings' })).json();
    expect(before).toMatchObject({ enabled: false, mercadopago_access_token_set: false, notification_url_reachable: false });
    // off, it saves half set up; on, with what is stored, it saves
    expect((await put({ ...noPrice, enabled: false })).statusCode).toBe(200);
    const on = await put({ enabled: true, prices: [{ package_id: pkg, price_cents: 3500 }] });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ enabled: true, mercadopago_access_token_set: true, mercadopago_webhook_secret_set: true });
    // and stays whole: clearing the secret while on is refused
    expect(await refused({ mercadopago_webhook_secret: null })).toMatchObject({ field: 'mercadopago_webhook_secret', reason: 'REQUIRED_TO_ENABLE' });
  });
});
