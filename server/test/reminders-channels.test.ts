import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freezeClock, nowSec, resetClock } from '../src/lib/clock.ts';
import { render } from '../src/modules/reminders/stages.ts';
import { adminWithPackage, createLine, createSignedInReseller } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { type EvolutionStandin, startEvolution } from './standins/evolution.ts';

// The reminders' channel rules (docs/reminders.md): no turning on without a channel that can send;
// the WhatsApp gateway checked on demand; a failed test says why; the message leaves out the
// parts a reseller has no value for (its WhatsApp, the renewal link without PIX payments).

const PASS = 'Kq7.vX2p_Rz9@tLm';
const KEY = 'evo-key-channels-01';

/** A local port nothing listens on (a gateway that is down: connection refused). */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe(`reminders channels (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let groups: Record<string, number>;
  let evo: EvolutionStandin;
  let deadUrl: string;
  const put = (token: string, body: Record<string, unknown>) => t.call(token, { method: 'PUT', url: '/api/reminders/settings', payload: body });
  const reseller = (username: string) => createSignedInReseller(t, admin, { username, password: PASS, type: 'reseller', credits: 20, groups });

  beforeAll(async () => {
    evo = await startEvolution(KEY);
    deadUrl = `http://127.0.0.1:${await closedPort()}`;
    // no SMTP: e-mail can never send here
    t = await createTestContext({ outboundAllowNetworks: ['127.0.0.1/32'], publicUrl: 'https://painel.example', integrationTimeoutMs: 1000 });
    ({ admin, groups, pkg } = await adminWithPackage(t));
  });
  afterEach(() => resetClock());
  afterAll(async () => {
    await t?.close();
    await evo?.close();
  });

  it('renders a [part] only when its variables have values, dropping the line it leaves empty', () => {
    const vars = { nome: 'ana', usuario: 'ana', vencimento: '20/11/2026 18:00', dias: '3', pacote: '', link_renovacao: '', whatsapp_revenda: 'https://wa.me/5511988880000' };
    const text = 'Olá {nome} ({usuario}[, {pacote}]).\n[Renove: {link_renovacao}]\n[Fale comigo: {whatsapp_revenda}] [sem variável]';
    expect(render(text, vars)).toBe('Olá ana (ana).\nFale comigo: https://wa.me/5511988880000 [sem variável]');
    expect(render('a\n\nb [{link_renovacao}] c', vars)).toBe('a\n\nb  c'); // a written blank line stays
  });

  it('refuses turning reminders on with no channel that can send, in a catalogue code', async () => {
    const r = await reseller('canal_nenhum');
    const none = await put(r.token, { enabled: true });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ code: 'REMINDERS_NO_CHANNEL', field: 'enabled' });
    // e-mail switched on is no channel while the server has no SMTP
    expect((await put(r.token, { enabled: true, channels: { email: { enabled: true } } })).json().code).toBe('REMINDERS_NO_CHANNEL');
    expect((await t.call(r.token, { method: 'GET', url: '/api/reminders/settings' })).json().enabled).toBe(false);
    // with the gateway in the same save it turns on; taking the gateway away while on is refused
    const on = await put(r.token, { enabled: true, channels: { whatsapp: { base_url: evo.url, instance: 'loja', api_key: KEY } } });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().enabled).toBe(true);
    expect((await put(r.token, { channels: { whatsapp: { base_url: null } } })).json().code).toBe('REMINDERS_NO_CHANNEL');
    expect((await put(r.token, { enabled: false, channels: { whatsapp: { base_url: null } } })).statusCode).toBe(200);
  });

  it('checks the WhatsApp gateway on demand, and a failed test says what failed', async () => {
    const r = await reseller('canal_teste');
    const check = () => t.call(r.token, { method: 'POST', url: '/api/reminders/whatsapp/check' });
    const test = () => t.call(r.token, { method: 'POST', url: '/api/reminders/test', payload: { channel: 'whatsapp', to: '11 97777-0001' } });
    expect((await check()).json()).toEqual({ ok: false, failure: { reason: 'not_configured', status: null } });

    await put(r.token, { channels: { whatsapp: { base_url: evo.url, instance: 'loja', api_key: KEY } } });
    expect((await check()).json()).toEqual({ ok: true, failure: null });
    const sent = evo.delivered.length;
    await check();
    expect(evo.delivered).toHaveLength(sent); // a check sends nothing

    evo.mode = 'down';
    expect((await check()).json()).toEqual({ ok: false, failure: { reason: 'server_error', status: 503 } });
    const down = await test();
    expect(down.statusCode).toBe(200);
    expect(down.json()).toMatchObject({ ok: false, failure: { reason: 'server_error', status: 503 } });
    evo.mode = 'ok';

    await put(r.token, { channels: { whatsapp: { api_key: 'not-the-key' } } });
    expect((await check()).json()).toEqual({ ok: false, failure: { reason: 'unauthorized', status: 401 } });
    expect((await test()).json()).toMatchObject({ ok: false, failure: { reason: 'unauthorized', status: 401 } });

    await put(r.token, { channels: { whatsapp: { base_url: deadUrl, api_key: KEY } } });
    expect((await check()).json()).toEqual({ ok: false, failure: { reason: 'refused', status: null } });
    expect((await test()).json()).toMatchObject({ ok: false, failure: { reason: 'refused', status: null } });
  });

  it('leaves out the reseller’s WhatsApp and the renewal link when there are none, in the preview and the sent text alike', async () => {
    const r = await reseller('canal_texto');
    const line = await createLine(t, r.token, { package_id: pkg, whatsapp: '11 96666-0001' });
    // {dias} counts calendar days in the panel's time zone: time held still, the expiry is exactly
    // three days from now at any hour (an hour more crossed a local midnight when run after 23:00)
    freezeClock();
    await t.database.db.updateTable('lines').set({ exp_date: nowSec() + 3 * 86_400 }).where('id', '=', line.id).execute();
    const preview = async () => (await t.call(r.token, { method: 'POST', url: '/api/reminders/preview', payload: { stage: 'before_3' } })).json().text as string;
    const renewal = async () => (await t.call(r.token, { method: 'GET', url: `/api/reminders/renewal-link/${line.id}` })).json().url as string | null;

    // no WhatsApp of its own, no PIX: neither part, and no dangling "fale comigo:"
    const bare = await preview();
    expect(bare).toContain(`vence em 3 dias`);
    expect(bare).not.toMatch(/fale comigo|Renove|dia\(s\)|\[|\]/i);
    expect(await renewal()).toBeNull();

    // a WhatsApp, and PIX payments on: both parts, the link the customer's renewal page
    await t.database.db.updateTable('resellers').set({ whatsapp: '11988880000' }).where('id', '=', r.id).execute();
    const pix = await t.call(r.token, {
      method: 'PUT',
      url: '/api/payments/settings',
      payload: { enabled: true, mercadopago_access_token: 'APP_USR-channels', mercadopago_webhook_secret: 'whsec-channels', prices: [{ package_id: pkg, price_cents: 2500 }] },
    });
    expect(pix.statusCode, pix.body).toBe(200);
    const full = await preview();
    expect(full).toContain('Fale comigo: https://wa.me/5511988880000');
    expect(full).toMatch(/Renove aqui: https:\/\/painel\.example\/minha-conta\?t=\S+/);
    expect(await renewal()).toMatch(/^https:\/\/painel\.example\/minha-conta\?t=\S+$/);

    // another account's line: not found
    const other = await reseller('canal_outro');
    expect((await t.call(other.token, { method: 'GET', url: `/api/reminders/renewal-link/${line.id}` })).statusCode).toBe(404);
  });
});
