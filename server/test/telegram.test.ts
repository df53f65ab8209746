import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, nowSec } from '../src/lib/clock.ts';
import { sendRound } from '../src/modules/telegram/service.ts';
import { adminWithPackage, balanceOf, createPackage, createSignedInReseller } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { type EvolutionStandin, startEvolution } from './standins/evolution.ts';
import { type Notification, startMercadoPago } from './standins/mercadopago.ts';
import { type TelegramStandin, startTelegram } from './standins/telegram.ts';

// The resellers' Telegram bots (docs/telegram.md) against a Bot API stand-in and a Mercado Pago
// stand-in on sockets: connecting a bot (getMe, setWebhook with a secret), updates without the
// secret, every customer command, a PIX renewal in the chat end to end, a trial from a shared
// contact, the reseller's own chat and its news, and the send queue (429 retry_after, 5xx retried,
// a revoked token). The tests run the queue's rounds themselves (sendRound) instead of a timer.

const PASS = 'Kq7.vX2p_Rz9@tLm';
const TOKEN = '7000001:AAH-loja-teste-bot-token-0123456789';
const OTHER_TOKEN = '7000002:AAH-outra-loja-bot-token-0123456789';
const MASTER_TOKEN = '7000003:AAH-rede-master-bot-token-0123456789';
const SUB_TOKEN = '7000004:AAH-sub-revenda-bot-token-0123456789';
const MP_TOKEN = 'APP_USR-telegram-stand-in';
const MP_SECRET = 'mp-webhook-secret-telegram';
const CUSTOMER = 555_001;
const OWNER = 777_001;

describe(`Telegram bots (${ENGINE})`, () => {
  let t: TestContext;
  let tg: TelegramStandin;
  let mp: Awaited<ReturnType<typeof startMercadoPago>>;
  let evo: EvolutionStandin;
  let admin: string;
  let groups: Record<string, number>;
  let paid: number;
  let trialPkg: number;
  let reseller: { id: number; token: string };
  let secret: string;
  let updateId = 1;

  const settings = (token: string, payload: Record<string, unknown>) => t.call(token, { method: 'PUT', url: '/api/telegram/settings', payload });
  /** An update from Telegram; `header` null: without the secret header. */
  const update = (body: Record<string, unknown>, header: string | null = secret, botId = 7000001) =>
    t.app.inject({ method: 'POST', url: `/api/telegram/${botId}/webhook`, headers: header === null ? {} : { 'x-telegram-bot-api-secret-token': header }, payload: { update_id: updateId++, ...body } });
  const from = (id: number, language_code = 'pt-br') => ({ id, is_bot: false, first_name: 'Ana', language_code });
  let messageId = 1;
  const text = (chat: number, body: string, language_code?: string) =>
    update({ message: { message_id: messageId++, date: nowSec(), chat: { id: chat, type: 'private' }, from: from(chat, language_code), text: body } });
  /** Runs the queue until nothing is due, then the texts each chat got since `mark`. */
  async function drain() {
    for (let i = 0; i < 20 && (await sendRound(t.deps)) > 0; i++) advanceClock(1000);
  }
  const texts = (chat: number) => tg.sent('sendMessage', chat).map((c) => String(c.body.text));
  const lastText = (chat: number) => texts(chat).at(-1) ?? '';
  const pending = async () => (await t.database.db.selectFrom('telegram_outbox').select('id').where('status', '=', 'pending').execute()).length;

  beforeAll(async () => {
    tg = await startTelegram({
      [TOKEN]: { id: 7000001, username: 'loja_teste_bot', first_name: 'Loja Teste' },
      [OTHER_TOKEN]: { id: 7000002, username: 'outra_loja_bot', first_name: 'Outra Loja' },
      [MASTER_TOKEN]: { id: 7000003, username: 'rede_master_bot', first_name: 'Rede Master' },
      [SUB_TOKEN]: { id: 7000004, username: 'sub_revenda_bot', first_name: 'Sub Revenda' },
    });
    mp = await startMercadoPago(MP_TOKEN);
    evo = await startEvolution('evo-key-telegram-01');
    t = await createTestContext({ publicUrl: 'https://painel.example', outboundAllowNetworks: ['127.0.0.1/32'], telegramApiUrl: tg.url, integrationTimeoutMs: 2000, mercadopagoApiUrl: mp.url });
    ({ admin, groups, pkg: paid } = await adminWithPackage(t, 'Mensal'));
    const bouquet = (await t.database.db.selectFrom('bouquets').select('id').executeTakeFirstOrThrow()).id;
    trialPkg = await createPackage(t, admin, 'Teste 4h', bouquet, { is_trial: 1, is_official: 0, trial_duration: 4, trial_duration_in: 'hours' });
    reseller = await createSignedInReseller(t, admin, { username: 'tg_res', password: PASS, type: 'reseller', credits: 20, groups });
  });
  afterAll(async () => {
    await t?.close();
    await tg?.close();
    await mp?.close();
    await evo?.close();
  });

  it('connects a bot: the token checked with getMe, the webhook set with a secret, the token never shown', async () => {
    const none = await t.call(reseller.token, { method: 'GET', url: '/api/telegram/settings' });
    expect(none.json()).toMatchObject({ enabled: false, bot_token_set: false, bot_link: null, owner_chat_linked: false, credits_low_threshold: 10, public_url_configured: true });
    expect((await settings(reseller.token, { enabled: true })).json()).toMatchObject({ code: 'VALIDATION', field: 'enabled', reason: 'REQUIRED_TO_ENABLE' });
    expect((await settings(reseller.token, { bot_token: 'not a token' })).json()).toMatchObject({ code: 'VALIDATION', field: 'bot_token', reason: 'INVALID_TOKEN' });
    const refused = await settings(reseller.token, { bot_token: '7000009:AAH-unknown-bot-token-0123456789' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ field: 'bot_token', reason: 'INVALID_TOKEN' });

    tg.failNext('getMe', { status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } });
    expect((await settings(reseller.token, { bot_token: TOKEN })).json().code).toBe('UPSTREAM_ERROR');

    const on = await settings(reseller.token, { bot_token: TOKEN, enabled: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ enabled: true, bot_token_set: true, bot_username: 'loja_teste_bot', bot_name: 'Loja Teste', bot_link: 'https://t.me/loja_teste_bot', revoked: false });
    expect(on.body).not.toContain('AAH-loja');
    const hook = tg.sent('setWebhook').at(-1)!;
    expect(hook.token).toBe(TOKEN);
    expect(hook.body.url).toBe('https://painel.example/api/telegram/7000001/webhook');
    secret = String(hook.body.secret_token);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
    const stored = await t.database.db.selectFrom('telegram_bots').selectAll().where('reseller_id', '=', reseller.id).executeTakeFirstOrThrow();
    expect(stored.token_sealed).not.toContain('AAH-loja');
    expect(stored.secret_hash).not.toContain(secret);

    // one bot, one account: Telegram is not told anything for the second one (the first keeps its webhook and secret)
    const other = await createSignedInReseller(t, admin, { username: 'tg_outro', password: PASS, type: 'reseller', credits: 5, groups });
    const hooks = tg.sent('setWebhook').length;
    expect((await settings(other.token, { bot_token: TOKEN })).json().code).toBe('BOT_IN_USE');
    expect(tg.sent('setWebhook')).toHaveLength(hooks);
  });

  it('answers 401 to an update without the secret, and does nothing', async () => {
    const before = tg.calls.length;
    for (const header of [null, 'wrong-secret', `${secret}x`]) {
      const bad = await update({ message: { message_id: 1, date: nowSec(), chat: { id: CUSTOMER, type: 'private' }, from: from(CUSTOMER), text: '/start' } }, header);
      expect(bad.statusCode).toBe(401);
      expect(bad.json().code).toBe('INVALID_SIGNATURE');
    }
    // an unknown bot id: the same 401
    expect((await update({}, secret, 7000999)).statusCode).toBe(401);
    await drain();
    expect(tg.calls.slice(before)).toHaveLength(0);
    expect(await pending()).toBe(0);
    // the right secret is answered
    expect((await text(CUSTOMER, '/start')).statusCode).toBe(200);
    await drain();
    expect(tg.calls.slice(before).filter((c) => c.method === 'sendMessage')).toHaveLength(1);
    expect(lastText(CUSTOMER)).toContain('/entrar');
    expect(lastText(CUSTOMER)).not.toContain('/teste'); // no trials offered yet
  });

  it('handles an update once when Telegram sends it again', async () => {
    const body = { update_id: 900_001, message: { message_id: 77, date: nowSec(), chat: { id: CUSTOMER, type: 'private' }, from: from(CUSTOMER), text: '/start' } };
    const n = texts(CUSTOMER).length;
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/telegram/7000001/webhook', headers: { 'x-telegram-bot-api-secret-token': secret }, payload: body });
      expect(res.statusCode).toBe(200);
    }
    await drain();
    expect(texts(CUSTOMER)).toHaveLength(n + 1);
  });

  it("links the reseller's own chat with a one-time code; /saldo there only", async () => {
    const code = await t.call(reseller.token, { method: 'POST', url: '/api/telegram/link-code' });
    expect(code.statusCode, code.body).toBe(200);
    expect(code.json().link).toBe(`https://t.me/loja_teste_bot?start=${code.json().code}`);
    expect((await text(OWNER, '/start 00000000')).statusCode).toBe(200);
    await drain();
    expect(lastText(OWNER)).toContain('Código inválido');
    await text(OWNER, `/start ${code.json().code}`);
    await drain();
    expect(lastText(OWNER)).toContain('@loja_teste_bot');
    expect((await t.call(reseller.token, { method: 'GET', url: '/api/telegram/settings' })).json().owner_chat_linked).toBe(true);
    // spent: another chat cannot take it
    await text(OWNER + 1, `/start ${code.json().code}`);
    await text(OWNER, '/saldo');
    await text(CUSTOMER, '/saldo');
    await drain();
    expect(lastText(OWNER + 1)).toContain('Código inválido');
    expect(lastText(OWNER)).toBe('Saldo: <b>20</b> créditos.');
    expect(lastText(CUSTOMER)).toContain('só para a revenda');
    // an account without a bot has no code to make
    const other = await createSignedInReseller(t, admin, { username: 'tg_sem_bot', password: PASS, type: 'reseller', credits: 5, groups });
    expect((await t.call(other.token, { method: 'POST', url: '/api/telegram/link-code' })).statusCode).toBe(404);
  });

  it('/entrar links a line (the message with the password deleted), /status shows it, /sair unlinks', async () => {
    const made = await t.call(reseller.token, { method: 'POST', url: '/api/users', headers: { 'idempotency-key': 'tg-line-0001' }, payload: { username: 'cliente_tg', password: 'senhaTg123', package_id: paid } });
    expect(made.statusCode, made.body).toBe(201);
    await text(CUSTOMER, '/status');
    await text(CUSTOMER, '/entrar cliente_tg errada');
    const wrongId = messageId - 1;
    await text(CUSTOMER, '/entrar cliente_tg senhaTg123');
    const rightId = messageId - 1;
    await text(CUSTOMER, '/status');
    await drain();
    const [notLinked, wrong, linked, status] = texts(CUSTOMER).slice(-4);
    expect(notLinked).toContain('Conecte sua linha');
    expect(wrong).toBe('Usuário ou senha incorretos.');
    expect(linked).toContain('cliente_tg');
    expect(status).toContain('Mensal');
    expect(status).toContain('Telas: 1');
    expect(status).toMatch(/Vence em: <b>\d{2}\/\d{2}\/\d{4}/);
    expect(status).toContain('https://painel.example/');
    expect(tg.sent('deleteMessage', CUSTOMER).map((c) => c.body.message_id)).toEqual([wrongId, rightId]);
    // delivered sends keep no text in the queue
    expect((await t.database.db.selectFrom('telegram_outbox').select('payload').where('status', '=', 'sent').where('payload', '!=', '').execute()).length).toBe(0);
    // the password goes out only inside the playlist link /status gives (as the customer page shows it)
    const withPassword = tg.calls.filter((c) => JSON.stringify(c.body).includes('senhaTg123')).map((c) => String(c.body.text).replace(/Lista \(M3U\): \S+/, ''));
    expect(withPassword).toHaveLength(1);
    expect(withPassword[0]).not.toContain('senhaTg123');

    // another account's line is a wrong password here
    const other = await createSignedInReseller(t, admin, { username: 'tg_terceiro', password: PASS, type: 'reseller', credits: 5, groups });
    expect((await t.call(other.token, { method: 'POST', url: '/api/users', headers: { 'idempotency-key': 'tg-line-0002' }, payload: { username: 'cliente_outro', password: 'senhaOutro1', package_id: paid } })).statusCode).toBe(201);
    await text(CUSTOMER + 9, '/entrar cliente_outro senhaOutro1');
    await drain();
    expect(lastText(CUSTOMER + 9)).toBe('Usuário ou senha incorretos.');

    // an English client gets English
    await text(CUSTOMER + 8, '/status', 'en');
    await drain();
    expect(lastText(CUSTOMER + 8)).toContain('Link your line first');

    await text(CUSTOMER + 9, '/sair');
    await drain();
    expect(lastText(CUSTOMER + 9)).toBe('Chat desconectado da linha.');

    // a group chat is ignored (its members would read the password)
    const n = tg.calls.length;
    await update({ message: { message_id: messageId++, date: nowSec(), chat: { id: -100123, type: 'group' }, from: from(CUSTOMER), text: '/entrar cliente_tg senhaTg123' } });
    await drain();
    expect(tg.calls).toHaveLength(n);
  });

  it("a changed password or a line handed to another account unlinks the chats that signed in with it", async () => {
    const made = await t.call(reseller.token, { method: 'POST', url: '/api/users', headers: { 'idempotency-key': 'tg-line-0003' }, payload: { username: 'cliente_troca', password: 'senhaVelha1', package_id: paid } });
    expect(made.statusCode, made.body).toBe(201);
    const chat = CUSTOMER + 50;
    await text(chat, '/entrar cliente_troca senhaVelha1');
    await text(chat, '/status');
    await drain();
    expect(lastText(chat)).toContain('cliente_troca');
    const edit = await t.call(reseller.token, { method: 'PUT', url: `/api/users/${made.json().id}`, payload: { password: 'senhaNova22' } });
    expect(edit.statusCode, edit.body).toBe(200);
    await text(chat, '/status');
    await drain();
    expect(lastText(chat)).toContain('Conecte sua linha');
    expect(tg.calls.filter((c) => JSON.stringify(c.body).includes('senhaNova22'))).toHaveLength(0);
    // and it stays unlinked
    expect((await t.database.db.selectFrom('telegram_chats').select('line_id').where('chat_id', '=', chat).executeTakeFirstOrThrow()).line_id).toBeNull();
  });

  it('throttles /entrar guesses per Telegram account', async () => {
    const guesser = CUSTOMER + 20;
    for (let i = 0; i < 12; i++) await text(guesser, `/entrar cliente_tg errada${i}`);
    await text(guesser, '/entrar cliente_tg senhaTg123');
    await drain();
    expect(texts(guesser).some((m) => m.includes('Muitas tentativas'))).toBe(true);
    expect(lastText(guesser)).toContain('Muitas tentativas');
  });

  it('/renovar offers the PIX prices; a button makes one charge (QR photo and code); the payment renews the line and both chats hear it', async () => {
    const pix = { enabled: true, mercadopago_access_token: MP_TOKEN, mercadopago_webhook_secret: MP_SECRET, prices: [{ package_id: paid, price_cents: 3500 }] };
    expect((await t.call(reseller.token, { method: 'PUT', url: '/api/payments/settings', payload: pix })).statusCode).toBe(200);
    await text(CUSTOMER, '/renovar');
    await drain();
    const offer = tg.sent('sendMessage', CUSTOMER).at(-1)!;
    const button = (offer.body.reply_markup as { inline_keyboard: { text: string; callback_data: string }[][] }).inline_keyboard[0]![0]!;
    expect(button.callback_data).toBe(`renew:${paid}`);
    expect(button.text).toContain('R$');
    expect(button.text).toContain('35,00');

    const press = { id: 'cbq-0001', from: from(CUSTOMER), data: button.callback_data, message: { message_id: 5, chat: { id: CUSTOMER, type: 'private' } } };
    expect((await update({ callback_query: press })).statusCode).toBe(200);
    expect((await update({ callback_query: press })).statusCode).toBe(200); // Telegram delivering the press twice (a new update_id)
    await drain();
    const charges = await t.database.db.selectFrom('payments').select(['id', 'mp_payment_id', 'amount_cents', 'exp_after']).execute();
    expect(charges).toHaveLength(1);
    const photos = tg.sent('sendPhoto', CUSTOMER);
    expect(photos.length).toBe(2); // the same charge's QR, once per press
    expect((photos[0]!.body.photo as { file: Buffer }).file.length).toBeGreaterThan(0);
    expect(String(photos[0]!.body.caption)).toContain('35,00');
    expect(texts(CUSTOMER).some((m) => m.includes('<code>') && m.includes('copia e cola'))).toBe(true);
    expect(tg.sent('answerCallbackQuery').map((c) => c.body.callback_query_id)).toContain('cbq-0001');

    const before = await t.database.db.selectFrom('lines').select('exp_date').where('username', '=', 'cliente_tg').executeTakeFirstOrThrow();
    const mpId = Number(charges[0]!.mp_payment_id);
    mp.set(mpId, { status: 'approved' });
    const n: Notification = mp.notification(mpId, MP_SECRET);
    expect((await t.app.inject({ method: 'POST', url: n.path, headers: { ...n.headers, 'content-type': 'application/json' }, payload: n.body })).statusCode).toBe(200);
    const after = await t.database.db.selectFrom('lines').select('exp_date').where('username', '=', 'cliente_tg').executeTakeFirstOrThrow();
    expect(Number(after.exp_date)).toBeGreaterThan(Number(before.exp_date));
    await drain();
    expect(lastText(CUSTOMER)).toMatch(/^Pagamento confirmado\. Renovado até <b>\d{2}\/\d{2}\/\d{4}/);
    expect(lastText(OWNER)).toContain('PIX aprovado');
    expect(lastText(OWNER)).toContain('cliente_tg');
  });

  it('a PIX paid while the reseller lacks credits: the reseller is asked for them, the customer told it is being processed', async () => {
    const spare = await balanceOf(t.database.db, reseller.id);
    // spend the balance down to 0 through the panel (its own sales are not news)
    const owner = (await t.database.db.selectFrom('telegram_outbox').select('id').where('chat_id', '=', OWNER).execute()).length;
    await t.database.db.updateTable('resellers').set({ credits: 0 }).where('id', '=', reseller.id).execute();
    const press = { id: 'cbq-0002', from: from(CUSTOMER), data: `renew:${paid}`, message: { message_id: 6, chat: { id: CUSTOMER, type: 'private' } } };
    await update({ callback_query: press });
    const charge = await t.database.db.selectFrom('payments').select(['id', 'mp_payment_id']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const mpId = Number(charge.mp_payment_id);
    mp.set(mpId, { status: 'approved' });
    const n = mp.notification(mpId, MP_SECRET);
    await t.app.inject({ method: 'POST', url: n.path, headers: { ...n.headers, 'content-type': 'application/json' }, payload: n.body });
    expect((await t.database.db.selectFrom('payments').select('status').where('id', '=', charge.id).executeTakeFirstOrThrow()).status).toBe('paid_awaiting_credits');
    await drain();
    expect(lastText(OWNER)).toContain('aguardando créditos');
    expect(lastText(CUSTOMER)).toContain('sendo processada');
    expect((await t.database.db.selectFrom('telegram_outbox').select('id').where('chat_id', '=', OWNER).execute()).length).toBe(owner + 1);
    await t.database.db.updateTable('resellers').set({ credits: spare }).where('id', '=', reseller.id).execute();
  });

  it('/teste takes the number from the customer\'s own shared contact and sends the trial in the chat, once per number', async () => {
    const fan = CUSTOMER + 30;
    await text(fan, '/teste');
    await drain();
    expect(lastText(fan)).toContain('não estão disponíveis');
    const page = await t.call(reseller.token, { method: 'PUT', url: '/api/trial-page/settings', payload: { slug: 'loja-tg', package_id: trialPkg, per_day: 20, message: 'Bem-vindo à <Loja TG> & bom teste!' } });
    expect(page.statusCode, page.body).toBe(200);
    // the page on without the WhatsApp gateway: the bot's trials do not need it
    await t.database.db.updateTable('trial_pages').set({ enabled: 1 }).where('reseller_id', '=', reseller.id).execute();
    await text(fan, '/start');
    await drain();
    expect(lastText(fan)).toContain('/teste — pedir um teste grátis');
    await text(fan, '/teste');
    await drain();
    const ask = tg.sent('sendMessage', fan).at(-1)!;
    expect((ask.body.reply_markup as { keyboard: { request_contact: boolean }[][] }).keyboard[0]![0]!.request_contact).toBe(true);
    const contact = (user_id: number, phone_number: string) =>
      update({ message: { message_id: messageId++, date: nowSec(), chat: { id: fan, type: 'private' }, from: from(fan), contact: { phone_number, first_name: 'Ana', user_id } } });
    await contact(fan + 1, '+55 11 98765-4321');
    await drain();
    expect(lastText(fan)).toContain('seu próprio número');
    await text(fan, '/teste');
    await contact(fan, '+5511987654321');
    await drain();
    const ready = lastText(fan);
    // the page's own message first (as plain text in the bot's HTML), then the credentials
    expect(ready).toMatch(/^Bem-vindo à &lt;Loja TG&gt; &amp; bom teste!\n\n<b>Seu teste está pronto!<\/b>/);
    const username = /Usuário: <code>([^<]+)<\/code>/.exec(ready)![1]!;
    const line = await t.database.db.selectFrom('lines').select(['id', 'is_trial', 'whatsapp', 'member_id']).where('username', '=', username).executeTakeFirstOrThrow();
    expect(line).toMatchObject({ is_trial: 1, whatsapp: '5511987654321', member_id: reseller.id });
    expect(lastText(OWNER)).toContain('Novo teste (Telegram)');
    // the chat is linked to its trial
    await text(fan, '/status');
    await drain();
    expect(lastText(fan)).toContain(username);
    // the same number again, from another Telegram account
    await text(fan + 2, '/teste');
    await update({ message: { message_id: messageId++, date: nowSec(), chat: { id: fan + 2, type: 'private' }, from: from(fan + 2), contact: { phone_number: '11987654321', first_name: 'B', user_id: fan + 2 } } });
    await drain();
    expect(lastText(fan + 2)).toContain('já recebeu um teste');
  });

  it('tells the reseller of a sale through an API key or the trial page and of credits falling under its threshold, once', async () => {
    expect((await settings(reseller.token, { credits_low_threshold: 15 })).json().credits_low_threshold).toBe(15);
    const key = await t.call(reseller.token, { method: 'POST', url: '/api/api-keys', payload: { name: 'loja-site', scopes: ['lines:write', 'lines:read'] } });
    expect(key.statusCode, key.body).toBe(201);
    const bearer = { authorization: `Bearer ${key.json().key}` };
    const before = texts(OWNER).length;
    const balance = await balanceOf(t.database.db, reseller.id);
    expect(balance).toBeGreaterThanOrEqual(16);
    await t.database.db.updateTable('resellers').set({ credits: 16 }).where('id', '=', reseller.id).execute();
    for (const k of ['api-sale-0001', 'api-sale-0002']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/users', headers: { ...bearer, 'idempotency-key': k }, payload: { package_id: paid } });
      expect(res.statusCode, res.body).toBe(201);
    }
    await drain();
    const news = texts(OWNER).slice(before);
    expect(news.filter((m) => m.includes('Nova venda (API · loja-site)'))).toHaveLength(2);
    expect(news.filter((m) => m.includes('Créditos baixos'))).toEqual(['⚠️ Créditos baixos: saldo de <b>14</b>.']);
    // a trial from the public page, once its WhatsApp message went out
    const gateway = { channels: { whatsapp: { base_url: evo.url, instance: 'tg', api_key: 'evo-key-telegram-01' } } };
    expect((await t.call(reseller.token, { method: 'PUT', url: '/api/reminders/settings', payload: gateway })).statusCode).toBe(200);
    const asked = await t.app.inject({ method: 'POST', url: '/api/public/trials', payload: { slug: 'loja-tg', whatsapp: '21 98888-1234' }, remoteAddress: '203.0.113.77' });
    expect(asked.statusCode, asked.body).toBe(202);
    await drain();
    expect(lastText(OWNER)).toContain('Novo teste (página de teste)');
    // a sale the balance cannot pay rolls back, and so does its news
    const broke = texts(OWNER).length;
    const credits = await balanceOf(t.database.db, reseller.id);
    await t.database.db.updateTable('resellers').set({ credits: 0 }).where('id', '=', reseller.id).execute();
    const refused = await t.app.inject({ method: 'POST', url: '/api/users', headers: { ...bearer, 'idempotency-key': 'api-sale-0003' }, payload: { package_id: paid } });
    expect(refused.json().code).toBe('INSUFFICIENT_CREDITS');
    await drain();
    expect(texts(OWNER)).toHaveLength(broke);
    await t.database.db.updateTable('resellers').set({ credits }).where('id', '=', reseller.id).execute();
    // a sale by hand in the panel is not news
    const n = texts(OWNER).length;
    expect((await t.call(reseller.token, { method: 'POST', url: '/api/users', headers: { 'idempotency-key': 'panel-sale-0001' }, payload: { package_id: paid } })).statusCode).toBe(201);
    await drain();
    expect(texts(OWNER)).toHaveLength(n);
  });

  it("a parent's API-key sale on a sub-reseller's line is told to the parent, who paid, not to the line's owner", async () => {
    /** Connects `token` as the account's bot and links `chat` as its own chat with a one-time code. */
    const connectBot = async (account: string, token: string, botId: number, chat: number) => {
      expect((await settings(account, { bot_token: token, enabled: true })).statusCode).toBe(200);
      const botSecret = String(tg.sent('setWebhook').at(-1)!.body.secret_token);
      const code = (await t.call(account, { method: 'POST', url: '/api/telegram/link-code' })).json().code;
      const message = { message_id: messageId++, date: nowSec(), chat: { id: chat, type: 'private' }, from: from(chat), text: `/start ${code}` };
      expect((await update({ message }, botSecret, botId)).statusCode).toBe(200);
    };
    const MASTER_CHAT = 888_001;
    const SUB_CHAT = 888_002;
    const master = await createSignedInReseller(t, admin, { username: 'tg_master', password: PASS, type: 'master', credits: 10, groups });
    const sub = await createSignedInReseller(t, master.token, { username: 'tg_sub', password: PASS, type: 'reseller', credits: 3, groups });
    await connectBot(master.token, MASTER_TOKEN, 7000003, MASTER_CHAT);
    await connectBot(sub.token, SUB_TOKEN, 7000004, SUB_CHAT);
    const line = await t.call(sub.token, { method: 'POST', url: '/api/users', payload: { package_id: paid } });
    expect(line.statusCode, line.body).toBe(201);
    const key = await t.call(master.token, { method: 'POST', url: '/api/api-keys', payload: { name: 'rede-site', scopes: ['lines:write', 'lines:read'] } });
    expect(key.statusCode, key.body).toBe(201);
    const masterCredits = await balanceOf(t.database.db, master.id);
    const renewed = await t.app.inject({
      method: 'POST',
      url: `/api/users/${line.json().id}/renew`,
      headers: { authorization: `Bearer ${key.json().key}`, 'idempotency-key': 'master-renew-0001' },
      payload: { months: 1 },
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(await balanceOf(t.database.db, master.id)).toBe(masterCredits - 1);
    await drain();
    expect(texts(MASTER_CHAT).filter((m) => m.includes('Renovação (API · rede-site)'))).toHaveLength(1);
    expect(texts(SUB_CHAT).filter((m) => m.includes('rede-site'))).toEqual([]);
  });

  it("sends within Telegram's limits: a 429's retry_after honoured, a 5xx retried, one message a round per chat, never twice", async () => {
    const chat = CUSTOMER + 40;
    await text(chat, '/start');
    await text(chat, '/status');
    expect(await sendRound(t.deps)).toBe(1); // one per chat per round
    tg.failNext('sendMessage', { status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 30', parameters: { retry_after: 30 } } });
    const n = tg.sent('sendMessage', chat).length;
    expect(await sendRound(t.deps)).toBe(0);
    expect(tg.sent('sendMessage', chat)).toHaveLength(n + 1); // asked once, refused
    advanceClock(10_000);
    expect(await sendRound(t.deps)).toBe(0); // the bot waits its 30 s
    expect(tg.sent('sendMessage', chat)).toHaveLength(n + 1);
    advanceClock(21_000);
    expect(await sendRound(t.deps)).toBe(1);
    expect(tg.sent('sendMessage', chat)).toHaveLength(n + 2);

    await text(chat, '/status');
    tg.failNext('sendMessage', { status: 500, body: { ok: false, error_code: 500, description: 'Internal Server Error' } }, 2);
    await sendRound(t.deps);
    advanceClock(1500);
    await sendRound(t.deps);
    advanceClock(2500);
    expect(await sendRound(t.deps)).toBe(1);
    const statuses = await t.database.db.selectFrom('telegram_outbox').select(['status', 'attempts']).where('chat_id', '=', chat).orderBy('id').execute();
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'sent', 'sent']);
    expect(statuses.at(-1)!.attempts).toBe(3);
    expect(await pending()).toBe(0);
  });

  it('keeps a chat in order behind a retry, never resends a message whose fate is unknown, caps a flooded chat without holding up the others', async () => {
    const chat = CUSTOMER + 60;
    await text(chat, '/start');
    await text(chat, '/status');
    tg.failNext('sendMessage', { status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } });
    await sendRound(t.deps); // the first fails, to be retried in 1 s
    advanceClock(200);
    await sendRound(t.deps); // the second waits behind it
    expect(tg.sent('sendMessage', chat)).toHaveLength(1);
    advanceClock(1000);
    await drain();
    const got = texts(chat);
    expect(got).toHaveLength(3);
    expect(got[1]).toBe(got[0]); // the /start answer again, then /status
    expect(got[2]).toContain('Conecte sua linha');

    // a flood: the chat's queue holds 20, another chat of another bot is not held up
    const flooder = CUSTOMER + 61;
    for (let i = 0; i < 30; i++) await text(flooder, '/start');
    expect((await t.database.db.selectFrom('telegram_outbox').select('id').where('chat_id', '=', flooder).where('status', '=', 'pending').execute()).length).toBe(20);
    await text(OWNER, '/saldo');
    expect(await sendRound(t.deps)).toBe(2); // the flooder's first and the owner's answer
    expect(lastText(OWNER)).toContain('Saldo');
    await drain();

    // no answer (Telegram may have taken it): not sent again, unless repeating is harmless
    await text(chat, '/status');
    tg.failNext('sendMessage', { status: 0, body: {} });
    const asked = tg.sent('sendMessage', chat).length;
    await sendRound(t.deps);
    advanceClock(60_000);
    await drain();
    expect(tg.sent('sendMessage', chat)).toHaveLength(asked + 1);
    const lost = await t.database.db.selectFrom('telegram_outbox').select(['status', 'last_error']).where('chat_id', '=', chat).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(lost.status).toBe('failed');

    // a row left `sending` by a process that died is failed, not sent again
    await text(chat, '/start');
    const row = await t.database.db.selectFrom('telegram_outbox').select('id').where('chat_id', '=', chat).where('status', '=', 'pending').executeTakeFirstOrThrow();
    await t.database.db.updateTable('telegram_outbox').set({ status: 'sending', next_at_ms: Date.now() }).where('id', '=', row.id).execute();
    advanceClock(1000);
    const before = tg.sent('sendMessage', chat).length;
    await sendRound(t.deps);
    expect(tg.sent('sendMessage', chat)).toHaveLength(before);
    expect((await t.database.db.selectFrom('telegram_outbox').select(['status', 'payload']).where('id', '=', row.id).executeTakeFirstOrThrow())).toEqual({ status: 'failed', payload: '' });
  });

  it('a bot switched off answers nothing and sends nothing more', async () => {
    await text(CUSTOMER, '/start');
    expect((await settings(reseller.token, { enabled: false })).json().enabled).toBe(false);
    const n = tg.calls.length;
    await text(CUSTOMER, '/status');
    await sendRound(t.deps);
    expect(tg.calls).toHaveLength(n);
    expect(await pending()).toBe(0);
    expect((await settings(reseller.token, { enabled: true })).json().enabled).toBe(true);
  });

  it('marks a bot whose token Telegram refuses as revoked, and its page says so; a new token brings it back', async () => {
    await text(CUSTOMER, '/start');
    tg.revoke(TOKEN);
    await sendRound(t.deps);
    const s = (await t.call(reseller.token, { method: 'GET', url: '/api/telegram/settings' })).json();
    expect(s).toMatchObject({ revoked: true, bot_token_set: true });
    expect(await pending()).toBe(0);
    // a revoked bot's updates change nothing
    await text(CUSTOMER, '/start');
    expect(await pending()).toBe(0);
    const other = await settings(reseller.token, { bot_token: OTHER_TOKEN });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json()).toMatchObject({ revoked: false, bot_username: 'outra_loja_bot', owner_chat_linked: false });
    // the old bot's webhook is gone with it
    expect((await update({}, secret, 7000001)).statusCode).toBe(401);
    const off = await settings(reseller.token, { bot_token: null });
    expect(off.json()).toMatchObject({ bot_token_set: false, enabled: false });
  });
});
