import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, nowSec } from '../src/lib/clock.ts';
import { addMonthsUtc, adminWithPackage, balanceOf, createPackage, createSignedInReseller, ledgerSumOf } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { type EvolutionStandin, startEvolution } from './standins/evolution.ts';
import { type Notification, startMercadoPago } from './standins/mercadopago.ts';

// Self-service trials (docs/trials.md) through an Evolution API stand-in and a Mercado Pago
// stand-in on sockets: the trial page's settings, the public page, one trial per number, the
// address and daily limits, a gateway that fails (nothing created), concurrent requests, and a
// trial turned into a paid line by PIX on the customer page.

const PASS = 'Kq7.vX2p_Rz9@tLm';
const KEY = 'evo-key-trials-0123';
const MP_TOKEN = 'APP_USR-trials-stand-in';
const MP_SECRET = 'mp-webhook-secret-trials';

describe(`self-service trials (${ENGINE})`, () => {
  let t: TestContext;
  let evo: EvolutionStandin;
  let mp: Awaited<ReturnType<typeof startMercadoPago>>;
  let admin: string;
  let groups: Record<string, number>;
  let paid: number;
  let trialPkg: number;
  let reseller: { id: number; token: string };
  let ipSeq = 0;
  const freshIp = () => `203.0.113.${++ipSeq}`;
  /** Moves the clock; sessions left idle that long end, so the admin and the reseller sign in again. */
  async function later(ms: number) {
    advanceClock(ms);
    admin = await t.login('admin');
    reseller.token = await t.login('teste_res', PASS);
  }

  const settings = (token: string, payload: Record<string, unknown>) => t.call(token, { method: 'PUT', url: '/api/trial-page/settings', payload });
  const gateway = (token: string, whatsapp: Record<string, unknown>) => t.call(token, { method: 'PUT', url: '/api/reminders/settings', payload: { channels: { whatsapp } } });
  const ask = (slug: string, whatsapp: string, ip = freshIp()) => t.app.inject({ method: 'POST', url: '/api/public/trials', payload: { slug, whatsapp }, remoteAddress: ip });
  const page = (slug: string) => t.app.inject({ method: 'GET', url: `/api/public/trial-pages/${slug}` });
  const sentTo = (number: string) => evo.delivered.filter((d) => d.number === number);
  const liveLines = async (memberId: number) =>
    (await t.database.db.selectFrom('lines').select(['id', 'username', 'password', 'is_trial', 'whatsapp', 'exp_date']).where('member_id', '=', memberId).where('deleted_at', 'is', null).execute());
  const trialsCreated = async (token: string) => (await t.call(token, { method: 'GET', url: '/api/reports/sales' })).json().totals.trials_created as number;
  const credentialsIn = (text: string) => ({ username: /Usuário: (\S+)/.exec(text)![1]!, password: /Senha: (\S+)/.exec(text)![1]! });

  /** A reseller with its WhatsApp gateway set up and its trial page on. */
  async function pageOwner(username: string, slug: string, extra: Record<string, unknown> = {}) {
    const r = await createSignedInReseller(t, admin, { username, password: PASS, type: 'reseller', credits: 10, groups });
    expect((await gateway(r.token, { base_url: evo.url, instance: username, api_key: KEY })).statusCode).toBe(200);
    const on = await settings(r.token, { enabled: true, slug, package_id: trialPkg, per_day: 50, ...extra });
    expect(on.statusCode, on.body).toBe(200);
    return r;
  }

  beforeAll(async () => {
    evo = await startEvolution(KEY);
    mp = await startMercadoPago(MP_TOKEN);
    t = await createTestContext({ outboundAllowNetworks: ['127.0.0.1/32'], publicUrl: 'https://painel.example', integrationTimeoutMs: 1000, mercadopagoApiUrl: mp.url, paymentsCheckAfterSeconds: 300 });
    ({ admin, groups, pkg: paid } = await adminWithPackage(t, 'Mensal'));
    const bouquet = (await t.database.db.selectFrom('bouquets').select('id').executeTakeFirstOrThrow()).id;
    trialPkg = await createPackage(t, admin, 'Teste 4h', bouquet, { is_trial: 1, is_official: 0, trial_duration: 4, trial_duration_in: 'hours' });
    reseller = await createSignedInReseller(t, admin, { username: 'teste_res', password: PASS, type: 'reseller', credits: 10, groups });
    await t.database.db.updateTable('resellers').set({ whatsapp: '(11) 98888-7777' }).where('id', '=', reseller.id).execute();
  });
  afterAll(async () => {
    await t?.close();
    await evo?.close();
    await mp?.close();
  });

  it('checks the settings: slug, a trial package, and what turning the page on needs', async () => {
    const none = await t.call(reseller.token, { method: 'GET', url: '/api/trial-page/settings' });
    expect(none.json()).toMatchObject({ enabled: false, slug: null, package_id: null, per_day: 10, public_url: null, whatsapp_ready: false });

    const badSlug = await settings(reseller.token, { slug: 'Minha Loja' });
    expect(badSlug.statusCode).toBe(400);
    expect(badSlug.json()).toMatchObject({ code: 'VALIDATION', field: 'slug' });
    const short = await settings(reseller.token, { slug: 'ab' });
    expect(short.json()).toMatchObject({ code: 'VALIDATION', field: 'slug' });
    const notTrial = await settings(reseller.token, { package_id: paid });
    expect(notTrial.statusCode).toBe(400);
    expect(notTrial.json()).toMatchObject({ code: 'VALIDATION', field: 'package_id', reason: 'UNKNOWN_CHOICE' });
    const noSlug = await settings(reseller.token, { enabled: true, package_id: trialPkg });
    expect(noSlug.json()).toMatchObject({ code: 'VALIDATION', field: 'slug', reason: 'REQUIRED_TO_ENABLE' });
    const noGateway = await settings(reseller.token, { enabled: true, slug: 'loja-teste', package_id: trialPkg });
    expect(noGateway.statusCode).toBe(400);
    expect(noGateway.json()).toMatchObject({ code: 'VALIDATION', field: 'enabled', reason: 'REQUIRED_TO_ENABLE' });
    // nothing of a refused call was saved
    expect((await t.call(reseller.token, { method: 'GET', url: '/api/trial-page/settings' })).json()).toMatchObject({ enabled: false, slug: null, package_id: null });

    expect((await gateway(reseller.token, { base_url: evo.url, instance: 'loja1', api_key: KEY })).statusCode).toBe(200);
    const on = await settings(reseller.token, { enabled: true, slug: 'loja-teste', package_id: trialPkg, per_day: 50, message: 'Bem-vindo à Loja!' });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ enabled: true, slug: 'loja-teste', package_id: trialPkg, per_day: 50, message: 'Bem-vindo à Loja!', public_url: 'https://painel.example/teste/loja-teste', whatsapp_ready: true });

    const other = await createSignedInReseller(t, admin, { username: 'outra_res', password: PASS, type: 'reseller', credits: 0, groups });
    const taken = await settings(other.token, { slug: 'loja-teste' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'SLUG_TAKEN', field: 'slug' });
  });

  it('shows the public page; unknown is 404, off or without a gateway 503', async () => {
    const res = await page('loja-teste');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ slug: 'loja-teste', reseller_name: 'teste_res', whatsapp: '(11) 98888-7777', message: 'Bem-vindo à Loja!', package_name: 'Teste 4h', duration: 4, duration_in: 'hours' });
    const unknown = await page('nao-existe');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('NOT_FOUND');
    expect((await ask('nao-existe', '11999990000')).statusCode).toBe(404);

    const off = await pageOwner('desligada_res', 'desligada');
    await settings(off.token, { enabled: false });
    expect((await page('desligada')).json()).toMatchObject({ code: 'NOT_CONFIGURED' });
    expect((await page('desligada')).statusCode).toBe(503);
    expect((await ask('desligada', '11999990001')).statusCode).toBe(503);

    const noGw = await pageOwner('semgw_res', 'sem-gateway');
    expect((await page('sem-gateway')).statusCode).toBe(200);
    expect((await gateway(noGw.token, { base_url: null, instance: null, api_key: null })).statusCode).toBe(200);
    expect((await page('sem-gateway')).statusCode).toBe(503);
    const refused = await ask('sem-gateway', '11999990002');
    expect(refused.statusCode).toBe(503);
    expect(refused.json().code).toBe('NOT_CONFIGURED');
    expect(await liveLines(noGw.id)).toHaveLength(0);
    expect(evo.requests).toBe(0);
  });

  it('refuses what cannot be a Brazilian mobile number, creating nothing', async () => {
    for (const bad of ['123', '(11) 3333-4444', 'abc', '+1 415 555 0100', '11 99999-000', '(11) 89999-0000']) {
      const res = await ask('loja-teste', bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'whatsapp' });
    }
    expect(await liveLines(reseller.id)).toHaveLength(0);
  });

  it('gives one trial per number, sent by WhatsApp only, whatever way the number is written', async () => {
    const before = await trialsCreated(reseller.token);
    const res = await ask('loja-teste', '(11) 99999-0000');
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ status: 'sent' });
    const [line] = await liveLines(reseller.id);
    expect(line).toMatchObject({ is_trial: 1, whatsapp: '5511999990000' });
    expect(Math.abs(line!.exp_date - (nowSec() + 4 * 3600))).toBeLessThan(5);
    const [msg] = sentTo('5511999990000');
    expect(msg!.instance).toBe('loja1');
    expect(msg!.text).toContain('Bem-vindo à Loja!');
    expect(msg!.text).toContain(`Usuário: ${line!.username}`);
    expect(msg!.text).toContain(`Senha: ${line!.password}`);
    expect(msg!.text).toContain(`/get.php?username=${line!.username}&password=${line!.password}&type=m3u_plus&output=m3u8`);
    expect(msg!.text).toMatch(/https:\/\/painel\.example\/minha-conta\?t=\d+\.\d+\.[A-Za-z0-9_-]{32}/);
    // the HTTP answer carries none of it
    expect(res.body).not.toContain(line!.username);
    expect(res.body).not.toContain(line!.password);
    expect(res.body).not.toContain('minha-conta');
    expect(await trialsCreated(reseller.token)).toBe(before + 1);
    // the signed link opens the customer page for that line
    const link = /minha-conta\?t=(\S+)/.exec(msg!.text)![1]!;
    expect((await t.app.inject({ method: 'POST', url: '/api/customer/sign-in', payload: { link } })).statusCode).toBe(200);

    for (const again of ['11999990000', '+55 11 99999-0000', '011 99999 0000', '5511999990000']) {
      const second = await ask('loja-teste', again);
      expect(second.statusCode, again).toBe(409);
      expect(second.json()).toMatchObject({ code: 'TRIAL_ALREADY_USED', field: 'whatsapp' });
    }
    expect(await liveLines(reseller.id)).toHaveLength(1);
    expect(sentTo('5511999990000')).toHaveLength(1);
  });

  it('limits an address to 3 trials a day (429 with Retry-After)', async () => {
    const ip = '198.51.100.7';
    for (let i = 1; i <= 3; i++) expect((await ask('loja-teste', `1197777000${i}`, ip)).statusCode).toBe(202);
    // IPv6: counted by the /64, as the sign-in limits count addresses
    for (let i = 1; i <= 3; i++) expect((await ask('loja-teste', `1197666000${i}`, `2001:db8:1:2::${i}`)).statusCode).toBe(202);
    expect((await ask('loja-teste', '11976660004', '2001:db8:1:2:ffff::9')).statusCode).toBe(429);
    advanceClock(3600_000);
    const fourth = await ask('loja-teste', '11977770004', ip);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().code).toBe('TRIAL_LIMIT');
    // the first of the three leaves the window 23 hours from now (the real clock may tick meanwhile)
    expect(23 * 3600 - Number(fourth.headers['retry-after'])).toBeGreaterThanOrEqual(0);
    expect(23 * 3600 - Number(fourth.headers['retry-after'])).toBeLessThan(3);
    expect(sentTo('5511977770004')).toHaveLength(0);
    // another address is not limited by it
    expect((await ask('loja-teste', '11977770004')).statusCode).toBe(202);
    await later(23 * 3600_000);
    expect((await ask('loja-teste', '11977770005', ip)).statusCode).toBe(202);
  });

  it("limits the account to the page's per_day in any 24 hours (429 with Retry-After)", async () => {
    const small = await pageOwner('pouco_res', 'pouco', { per_day: 2 });
    expect((await ask('pouco', '21988880001')).statusCode).toBe(202);
    advanceClock(600_000);
    expect((await ask('pouco', '21988880002')).statusCode).toBe(202);
    const third = await ask('pouco', '21988880003');
    expect(third.statusCode).toBe(429);
    expect(third.json().code).toBe('TRIAL_LIMIT');
    const wait = Number(third.headers['retry-after']);
    expect(86_400 - 600 - wait).toBeGreaterThanOrEqual(0);
    expect(86_400 - 600 - wait).toBeLessThan(3);
    expect(await liveLines(small.id)).toHaveLength(2);
    await later(wait * 1000);
    expect((await ask('pouco', '21988880003')).statusCode).toBe(202);
  });

  it('creates nothing when the gateway fails (500, 503, unreachable), and the number can try again', async () => {
    const lines = await liveLines(reseller.id);
    const balance = await balanceOf(t.database.db, reseller.id);
    const ledger = await ledgerSumOf(t.database.db, reseller.id);
    const trials = await trialsCreated(reseller.token);
    const totalLines = (await t.database.db.selectFrom('resellers').select('lines_count').where('id', '=', reseller.id).executeTakeFirstOrThrow()).lines_count;
    for (const mode of ['error', 'down'] as const) {
      evo.mode = mode;
      const res = await ask('loja-teste', '31977776666');
      expect(res.statusCode, res.body).toBe(502);
      expect(res.json().code).toBe('UPSTREAM_ERROR');
    }
    evo.mode = 'ok';
    // a gateway nobody answers at (connection refused)
    expect((await gateway(reseller.token, { base_url: 'http://127.0.0.1:1' })).statusCode).toBe(200);
    const refused = await ask('loja-teste', '31977776666');
    expect(refused.statusCode, refused.body).toBe(502);
    expect((await gateway(reseller.token, { base_url: evo.url })).statusCode).toBe(200);
    expect(await liveLines(reseller.id)).toEqual(lines);
    expect(await balanceOf(t.database.db, reseller.id)).toBe(balance);
    expect(await ledgerSumOf(t.database.db, reseller.id)).toBe(ledger);
    expect(await trialsCreated(reseller.token)).toBe(trials);
    expect((await t.database.db.selectFrom('resellers').select('lines_count').where('id', '=', reseller.id).executeTakeFirstOrThrow()).lines_count).toBe(totalLines);
    const failed = await t.database.db.selectFrom('trial_requests').select(['status', 'error']).where('whatsapp', '=', '5531977776666').execute();
    expect(failed.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);

    const ok = await ask('loja-teste', '31977776666');
    expect(ok.statusCode, ok.body).toBe(202);
    expect(sentTo('5531977776666')).toHaveLength(1);
    expect(await trialsCreated(reseller.token)).toBe(trials + 1);
  });

  it('gives one trial to concurrent requests for the same number', async () => {
    const results = await Promise.all(['41 99123-4567', '(41) 99123-4567', '5541991234567', '041991234567'].map((n) => ask('loja-teste', n)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([202, 409, 409, 409]);
    expect(sentTo('5541991234567')).toHaveLength(1);
    expect((await liveLines(reseller.id)).filter((l) => l.whatsapp === '5541991234567')).toHaveLength(1);
    // one address asking two pages at once still gets 3 in all
    const other = await pageOwner('paralela_res', 'paralela');
    const ip = '198.51.100.99';
    const burst = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => ask(i % 2 ? 'paralela' : 'loja-teste', `4799000000${i}`, ip)));
    expect(burst.map((r) => r.statusCode).sort()).toEqual([202, 202, 202, 429, 429, 429]);
    expect(evo.delivered.filter((d) => d.number.startsWith('554799'))).toHaveLength(3);
    expect((await liveLines(other.id)).length + (await liveLines(reseller.id)).filter((l) => l.whatsapp?.startsWith('554799')).length).toBe(3);
  });

  it("leaves the panel's own daily trial limit to the trials made in the panel", async () => {
    // two page trials in the last 24 hours; the panel's limit set to 1 still lets one panel trial through
    const put = await t.call(admin, { method: 'PUT', url: '/api/admin/settings', payload: { trial_limit_per_day: '1' } });
    expect(put.statusCode, put.body).toBeLessThan(300);
    const made = await t.call(reseller.token, { method: 'POST', url: '/api/trial_users', payload: { package_id: trialPkg } });
    expect(made.statusCode, made.body).toBe(201);
    const second = await t.call(reseller.token, { method: 'POST', url: '/api/trial_users', payload: { package_id: trialPkg } });
    expect(second.json().code).toBe('TRIAL_LIMIT_REACHED');
    await t.call(admin, { method: 'PUT', url: '/api/admin/settings', payload: { trial_limit_per_day: '5' } });
  });

  it('a trial paid by PIX on the customer page becomes a paid line from the payment on', async () => {
    const pix = { enabled: true, mercadopago_access_token: MP_TOKEN, mercadopago_webhook_secret: MP_SECRET, prices: [{ package_id: paid, price_cents: 3000 }] };
    expect((await t.call(reseller.token, { method: 'PUT', url: '/api/payments/settings', payload: pix })).statusCode).toBe(200);
    expect((await ask('loja-teste', '51999112233')).statusCode).toBe(202);
    const { username, password } = credentialsIn(sentTo('5551999112233')[0]!.text);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/customer/sign-in', payload: { username, password } });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const auth = { authorization: `Bearer ${signIn.json().token}` };
    const view = await t.app.inject({ method: 'GET', url: '/api/customer/line', headers: auth });
    expect(view.json()).toMatchObject({ is_trial: true, payments_enabled: true, offers: [{ package_id: paid, price_cents: 3000, duration: 1, duration_in: 'months' }] });
    advanceClock(3600_000); // an hour into the 4-hour trial
    const charge = await t.app.inject({ method: 'POST', url: '/api/customer/payments', headers: { ...auth, 'idempotency-key': 'trial-pay-0001' }, payload: { package_id: paid } });
    expect(charge.statusCode, charge.body).toBe(200);
    const mpId = Number((await t.database.db.selectFrom('payments').select('mp_payment_id').where('id', '=', charge.json().id).executeTakeFirstOrThrow()).mp_payment_id);
    const balance = await balanceOf(t.database.db, reseller.id);
    advanceClock(60_000);
    const paidAt = nowSec();
    mp.set(mpId, { status: 'approved' });
    const n: Notification = mp.notification(mpId, MP_SECRET);
    const res = await t.app.inject({ method: 'POST', url: n.path, headers: { ...n.headers, 'content-type': 'application/json' }, payload: n.body });
    expect(res.statusCode, res.body).toBe(200);
    const line = await t.database.db.selectFrom('lines').select(['is_trial', 'exp_date', 'package_id']).where('username', '=', username).executeTakeFirstOrThrow();
    expect(line).toMatchObject({ is_trial: 0, package_id: paid });
    // from the payment, not after the trial's 3 hours left (the real clock may tick meanwhile)
    expect(Number(line.exp_date) - addMonthsUtc(paidAt, 1)).toBeGreaterThanOrEqual(0);
    expect(Number(line.exp_date) - addMonthsUtc(paidAt, 1)).toBeLessThan(5);
    expect(await balanceOf(t.database.db, reseller.id)).toBe(balance - 1);
  });
});
