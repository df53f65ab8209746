import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { reminderTick } from '../src/modules/reminders/scheduler.ts';
import { lineOfToken } from '../src/modules/reminders/renewal-link.ts';
import { adminWithPackage, createLine, createSignedInReseller } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { type EvolutionStandin, startEvolution } from './standins/evolution.ts';
import { type SmtpStandin, startSmtp } from './standins/smtp.ts';

// Expiry reminders (docs/reminders.md) through an Evolution API stand-in and a real SMTP server:
// one message per line, stage, expiry and channel; none to opted-out, blocked, deleted or renewed
// lines; sending hours; a gateway outage then recovery; two schedulers at once; 20 a minute.

const PASS = 'Kq7.vX2p_Rz9@tLm';
const KEY = 'evo-key-0123456789';
const DAY = 86_400;
/** 2026-12-10 12:00 in São Paulo (UTC-3) */
const NOON = Date.UTC(2026, 11, 10, 15, 0, 0) / 1000;

describe(`reminders (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let groups: Record<string, number>;
  let reseller: { id: number; token: string };
  let evo: EvolutionStandin;
  let smtp: SmtpStandin;
  const tick = (now: number) => reminderTick(t.deps, now);

  async function line(payload: Record<string, unknown>, exp: number, token = reseller.token) {
    const made = await createLine(t, token, { package_id: pkg, ...payload });
    await t.database.db.updateTable('lines').set({ exp_date: exp }).where('id', '=', made.id).execute();
    return made as { id: number; username: string };
  }
  const put = (token: string, body: Record<string, unknown>) => t.call(token, { method: 'PUT', url: '/api/reminders/settings', payload: body });
  const sentTo = (number: string) => evo.delivered.filter((d) => d.number === number);

  beforeAll(async () => {
    evo = await startEvolution(KEY);
    smtp = await startSmtp();
    t = await createTestContext({
      outboundAllowNetworks: ['127.0.0.1/32'],
      smtpUrl: smtp.url,
      smtpFrom: 'avisos@painel.example',
      publicUrl: 'https://painel.example',
      integrationTimeoutMs: 1000,
      remindersRetryBaseMs: 60_000,
    });
    ({ admin, groups, pkg } = await adminWithPackage(t));
    reseller = await createSignedInReseller(t, admin, { username: 'lembra_res', password: PASS, type: 'reseller', credits: 200, groups });
    await t.database.db.updateTable('resellers').set({ whatsapp: '11988887777', email: 'revenda@example.com' }).where('id', '=', reseller.id).execute();
    // PIX payments on: the messages carry the renewal link
    const pix = { enabled: true, mercadopago_access_token: 'APP_USR-lembra', mercadopago_webhook_secret: 'whsec-lembra', prices: [{ package_id: pkg, price_cents: 2000 }] };
    expect((await t.call(reseller.token, { method: 'PUT', url: '/api/payments/settings', payload: pix })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await evo?.close();
    await smtp?.close();
  });

  it('keeps the gateway key write-only, checks templates, and turns on', async () => {
    const bad = await put(reseller.token, { templates: { before_3: { pt: 'Olá {nome}, vence {quando}' } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'TEMPLATE_UNKNOWN_VARIABLE', field: 'templates.before_3.pt' });
    expect(bad.json().message).toContain('{quando}');
    const notHttps = await put(reseller.token, { channels: { whatsapp: { base_url: 'http://gateway.example.com' } } });
    expect(notHttps.statusCode).toBe(400);

    const res = await put(reseller.token, {
      enabled: true,
      stages: ['before_3', 'day', 'after_1'],
      channels: { whatsapp: { base_url: evo.url, instance: 'loja1', api_key: KEY }, email: { enabled: true } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(KEY);
    expect(res.json()).toMatchObject({ enabled: true, stages: ['before_3', 'day', 'after_1'], quiet_hours: { from: '08:00', to: '21:00' }, channels: { whatsapp: { api_key_set: true, ready: true }, email: { ready: true } } });
    const sealed = await t.database.db.selectFrom('reminder_settings').select('whatsapp_key_sealed').where('reseller_id', '=', reseller.id).executeTakeFirstOrThrow();
    expect(sealed.whatsapp_key_sealed).not.toContain(KEY);
    const again = await t.call(reseller.token, { method: 'GET', url: '/api/reminders/settings' });
    expect(again.body).not.toContain(KEY);
  });

  it('tests a channel for real, and says NOT_CONFIGURED where there is none', async () => {
    const wa = await t.call(reseller.token, { method: 'POST', url: '/api/reminders/test', payload: { channel: 'whatsapp', to: '(11) 97777-0000' } });
    expect(wa.statusCode, wa.body).toBe(200);
    expect(sentTo('5511977770000')).toHaveLength(1);
    const mail = await t.call(reseller.token, { method: 'POST', url: '/api/reminders/test', payload: { channel: 'email', to: 'cliente@example.com' } });
    expect(mail.statusCode, mail.body).toBe(200);
    expect(smtp.mails.at(-1)).toMatchObject({ to: ['cliente@example.com'], from: 'avisos@painel.example' });
    expect(smtp.mails.at(-1)!.raw).toMatch(/^From: lembra_res <avisos@painel.example>/m);
    expect(smtp.mails.at(-1)!.raw).toMatch(/^Reply-To: revenda@example.com/m);

    const other = await createSignedInReseller(t, admin, { username: 'sem_canal', password: PASS, type: 'reseller', credits: 0, groups });
    const none = await t.call(other.token, { method: 'POST', url: '/api/reminders/test', payload: { channel: 'whatsapp', to: '11977770000' } });
    expect(none.statusCode).toBe(503);
    expect(none.json().code).toBe('NOT_CONFIGURED');
    const noMail = await t.call(other.token, { method: 'POST', url: '/api/reminders/test', payload: { channel: 'email', to: 'x@example.com' } });
    expect(noMail.json().code).toBe('NOT_CONFIGURED');
    evo.delivered.length = 0;
    smtp.mails.length = 0;
  });

  it('sends each due line one message per channel, once, with a working renewal link', async () => {
    const threeDays = NOON + 3 * DAY + 3600;
    const a = await line({ whatsapp: '11 91111-0001', email: 'a@example.com' }, threeDays);
    await line({ whatsapp: '11911110002' }, NOON + 5 * 3600); // today, 17:00
    const c = await line({ whatsapp: '11911110003', opt_out_reminders: true }, threeDays);
    const d = await line({ whatsapp: '11911110004' }, threeDays);
    const e = await line({ whatsapp: '11911110005' }, threeDays);
    await line({ email: 'f@example.com' }, NOON - DAY); // expired yesterday: after_1
    await line({ whatsapp: '11911110007' }, NOON + 5 * DAY); // no stage today
    await line({ whatsapp: '11911110008' }, NOON + 7 * DAY); // before_7 is not chosen
    expect((await t.call(reseller.token, { method: 'POST', url: `/api/users/${d.id}/block` })).statusCode).toBeLessThan(300);
    expect((await t.call(reseller.token, { method: 'DELETE', url: `/api/users/${e.id}` })).statusCode).toBeLessThan(300);

    const [first, second] = await Promise.all([tick(NOON), tick(NOON)]); // two schedulers at once
    expect(first.sent + second.sent).toBe(4);
    expect(sentTo('5511911110001')).toHaveLength(1);
    expect(sentTo('5511911110002')).toHaveLength(1);
    for (const n of ['03', '04', '05', '07', '08']) expect(sentTo(`55119111100${n}`)).toHaveLength(0);
    expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual(['a@example.com', 'f@example.com']);
    expect(evo.delivered.every((m) => m.instance === 'loja1')).toBe(true);

    const textA = sentTo('5511911110001')[0]!.text;
    expect(textA).toContain(a.username);
    expect(textA).toContain('vence em 3 dias');
    expect(textA).toContain('https://wa.me/5511988887777');
    const link = /https:\/\/painel\.example\/minha-conta\?t=(\S+)/.exec(textA);
    expect(link).not.toBeNull();
    expect(await lineOfToken(t.deps, link![1]!, NOON)).toBe(a.id);
    expect(await lineOfToken(t.deps, link![1]!, NOON + 8 * DAY)).toBeUndefined();
    expect(smtp.mails.find((m) => m.to[0] === 'f@example.com')!.body).toContain('venceu');
    expect(smtp.mails[0]!.subject).toBe('Lembrete de vencimento');

    // again, later the same day: nothing more
    expect(await tick(NOON + 3600)).toEqual({ sent: 0, failed: 0, retry: 0 });
    expect(evo.delivered).toHaveLength(2);

    // a renewal moves the expiry: the next cycle's reminders start afresh
    await t.database.db.updateTable('lines').set({ exp_date: threeDays + 30 * DAY }).where('id', '=', a.id).execute();
    expect((await tick(NOON + 30 * DAY)).sent).toBeGreaterThanOrEqual(1);
    expect(sentTo('5511911110001')).toHaveLength(2);
    void c;
  });

  it('holds outside the sending hours and goes on inside them', async () => {
    const night = NOON + 10 * DAY + 10 * 3600; // 22:00
    const l = await line({ whatsapp: '11922220001' }, night + 2 * 3600); // day stage: 00:00 next day? no: same day 23:59
    await t.database.db.updateTable('lines').set({ exp_date: night + 3600 }).where('id', '=', l.id).execute(); // 23:00 the same day
    expect((await tick(night)).sent).toBe(0);
    expect(sentTo('5511922220001')).toHaveLength(0);
    const morning = NOON + 10 * DAY - 3 * 3600 - 30 * 60; // 08:30 the same day, before its expiry
    expect((await tick(morning)).sent).toBe(1);
    expect(sentTo('5511922220001')).toHaveLength(1);
  });

  it('through a gateway outage and back, each message goes once; other accounts are not held up', async () => {
    const when = NOON + 40 * DAY;
    const lines = [];
    for (let i = 0; i < 3; i++) lines.push(await line({ whatsapp: `1193333000${i}` }, when + 3 * DAY));
    evo.mode = 'down';
    const down = await tick(when);
    expect(down.retry).toBe(1); // the first failure stops the account's sends for the tick
    expect(down.sent).toBe(0);
    expect((await tick(when + 10)).retry).toBe(0); // backing off: nothing tried again yet
    const history = await t.call(reseller.token, { method: 'GET', url: '/api/reminders/messages?status=retry' });
    expect(history.json().data[0]).toMatchObject({ status: 'retry', last_status: 503, channel: 'whatsapp', stage: 'before_3' });
    evo.mode = 'ok';
    await tick(when + 120);
    await tick(when + 240);
    for (let i = 0; i < 3; i++) expect(sentTo(`551193333000${i}`)).toHaveLength(1);
    const retried = await t.call(reseller.token, { method: 'GET', url: `/api/reminders/messages?line=${lines[0]!.username}` });
    expect(retried.json().data[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('sends at most 20 messages a minute per account', async () => {
    const when = NOON + 60 * DAY;
    for (let i = 0; i < 25; i++) await line({ whatsapp: `119444400${String(i).padStart(2, '0')}` }, when + 3 * DAY);
    expect((await tick(when)).sent).toBe(20);
    expect((await tick(when + 30)).sent).toBe(0);
    expect((await tick(when + 61)).sent).toBe(5);
  });

  it('lets resellers inherit their master’s templates and stages, and previews with a real line', async () => {
    const master = await createSignedInReseller(t, admin, { username: 'lembra_master', password: PASS, type: 'master', credits: 100, groups });
    const set = await put(master.token, { stages: ['before_1'], templates: { before_1: { pt: 'Amanhã vence o {usuario}! {link_renovacao}' } } });
    expect(set.statusCode, set.body).toBe(200);
    const sub = await createSignedInReseller(t, master.token, { username: 'lembra_sub', password: PASS, type: 'reseller', credits: 50, groups });
    const got = (await t.call(sub.token, { method: 'GET', url: '/api/reminders/settings' })).json();
    expect(got.stages).toEqual(['before_1']);
    expect(got.templates.before_1.pt).toBe('Amanhã vence o {usuario}! {link_renovacao}');
    // saving what it inherits keeps inheriting: the master's later change still reaches it
    expect((await put(sub.token, { enabled: true, stages: got.stages, templates: got.templates, channels: { whatsapp: { base_url: evo.url, instance: 'sub', api_key: KEY } } })).statusCode).toBe(200);
    await put(master.token, { templates: { before_1: { pt: 'Novo texto do master: {usuario}' } } });
    const after = (await t.call(sub.token, { method: 'GET', url: '/api/reminders/settings' })).json();
    expect(after.templates.before_1.pt).toBe('Novo texto do master: {usuario}');

    const mine = await line({ whatsapp: '11955550001' }, nowSec() + 2 * DAY, sub.token);
    const preview = await t.call(sub.token, { method: 'POST', url: '/api/reminders/preview', payload: { stage: 'before_1' } });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ text: `Novo texto do master: ${mine.username}`, line: { id: mine.id } });
    const custom = await t.call(sub.token, { method: 'POST', url: '/api/reminders/preview', payload: { stage: 'day', text: 'Vence {vencimento} ({dias})', line_id: mine.id } });
    expect(custom.json().text).toMatch(/^Vence \d{2}\/\d{2}\/\d{4},? \d{2}:\d{2} \(2\)$/);
    const foreign = await t.call(sub.token, { method: 'POST', url: '/api/reminders/preview', payload: { stage: 'day', line_id: 1 } });
    expect(foreign.statusCode).toBe(404);
  });

  it('pages the history with filters and counts today', async () => {
    const page = await t.call(reseller.token, { method: 'GET', url: '/api/reminders/messages?per=10&channel=whatsapp&status=sent' });
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body.data).toHaveLength(10);
    expect(body.meta.total).toBeGreaterThan(20);
    expect(body.data.every((m: { channel: string; status: string }) => m.channel === 'whatsapp' && m.status === 'sent')).toBe(true);
    const mail = await t.call(reseller.token, { method: 'GET', url: '/api/reminders/messages?channel=email' });
    expect(mail.json().meta.total).toBe(3); // a, f, and a again after its renewal
    const bad = await t.call(reseller.token, { method: 'GET', url: '/api/reminders/messages?stage=never' });
    expect(bad.statusCode).toBe(400);
    const today = await t.call(reseller.token, { method: 'GET', url: '/api/reminders/today' });
    expect(today.json()).toMatchObject({ enabled: true });
    // another account sees none of these
    const other = await createSignedInReseller(t, admin, { username: 'curioso', password: PASS, type: 'reseller', credits: 0, groups });
    expect((await t.call(other.token, { method: 'GET', url: '/api/reminders/messages' })).json().meta.total).toBe(0);
  });

  it('lines keep an e-mail and an opt-out, in the API and the export', async () => {
    const made = await createLine(t, reseller.token, { package_id: pkg, email: 'novo@example.com' });
    expect(made).toMatchObject({ email: 'novo@example.com', opt_out_reminders: 0 });
    const bad = await t.call(reseller.token, { method: 'POST', url: '/api/users', payload: { package_id: pkg, email: 'not-an-address' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('email');
    const edit = await t.call(reseller.token, { method: 'PUT', url: `/api/users/${made.id}`, payload: { opt_out_reminders: true, email: '' } });
    expect(edit.statusCode, edit.body).toBeLessThan(300);
    const row = await t.database.db.selectFrom('lines').select(['email', 'opt_out_reminders']).where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ email: null, opt_out_reminders: 1 });
  });
});
