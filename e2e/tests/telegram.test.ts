import { afterAll, describe, expect, test } from 'vitest';
import { describeViolations, headingOnes, runAxe } from '../support/axe.ts';
import { Api, byTestId, clickMenuEntry, signInUi, toast, tr, useE2eSuite, visibleText } from '../support/index.ts';
import { STAND_IN_BOT, startTelegram } from '../support/telegram.ts';
import type { TelegramSettings } from '../../web/src/features/telegram/types.ts';

// A reseller on a phone connects its own Telegram bot from the menu: pastes the token @BotFather
// gave, turns it on, saves; the panel asks Telegram (a Bot API stand-in on a socket) who the bot is
// and sets its webhook, with a secret. The reseller asks for a code to link its own chat; the test,
// as Telegram, delivers `/start <code>` to the webhook; the page sees the chat linked and the bot
// answers in that chat. Then the reseller unlinks its chat and disconnects the bot.

const POLL = { timeout: 15_000, interval: 200 };
const TOKEN = '7000001:AAE2e-telegram-stand-in-token_9x';
const PUBLIC_URL = 'http://painel.example';
const WEBHOOK_PATH = `/api/telegram/${STAND_IN_BOT.id}/webhook`;
const OWNER_CHAT = 555;

const telegram = await startTelegram({ token: TOKEN });
afterAll(() => telegram.close());

/** Telegram delivering an update to the panel's webhook: the answer's status. */
async function deliver(baseUrl: string, secret: string, text: string, ids: { update: number; message: number }): Promise<number> {
  const res = await fetch(`${baseUrl}${WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
    body: JSON.stringify({
      update_id: ids.update,
      message: {
        message_id: ids.message,
        date: Math.floor(Date.now() / 1000),
        chat: { id: OWNER_CHAT, type: 'private' },
        from: { id: OWNER_CHAT, is_bot: false, first_name: 'Ana', language_code: 'pt-br' },
        text,
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    }),
    signal: AbortSignal.timeout(15_000),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('Telegram bot', () => {
  const s = useE2eSuite({ env: { TELEGRAM_API_URL: telegram.url, PUBLIC_URL } });

  test('a reseller on a phone connects its bot, links its own chat with a code, and the bot answers there', async () => {
    const r = await s.admin.createReseller({ type: 'reseller', credits: 5 });
    const reseller = await Api.signIn(s.server.baseUrl, r.username, r.password);

    // on a phone: Telegram from the menu, no bot yet
    const page = await s.page({ viewport: { width: 375, height: 740 } });
    await signInUi(page, r.username, r.password);
    await clickMenuEntry(page, '/telegram');
    await expect.poll(() => visibleText(byTestId(page, 'telegram-bot-status')), POLL).toBe(tr('pt-BR', 'telegram.bot.statusNone').toUpperCase());
    expect(await byTestId(page, 'telegram-chat-needs-bot').isVisible()).toBe(true);
    expect(await byTestId(page, 'telegram-no-public-url').count()).toBe(0);

    // the token from @BotFather, on, saved: the bot's name and link
    await byTestId(page, 'telegram-token').fill(TOKEN);
    await byTestId(page, 'telegram-enabled').check();
    await byTestId(page, 'telegram-save').click();
    await toast(page, tr('pt-BR', 'telegram.bot.saved'));
    await expect.poll(() => visibleText(byTestId(page, 'telegram-bot-link')), POLL).toBe(`@${STAND_IN_BOT.username}`);
    expect(await byTestId(page, 'telegram-bot-link').getAttribute('href')).toBe(`https://t.me/${STAND_IN_BOT.username}`);
    expect(await visibleText(byTestId(page, 'telegram-bot-status'))).toBe(tr('pt-BR', 'telegram.bot.statusOn').toUpperCase());
    expect(await byTestId(page, 'telegram-token').inputValue()).toBe('');

    // Telegram was asked who the bot is, and where to deliver its updates: PUBLIC_URL, with a secret
    expect(telegram.callsOf('getMe').length).toBeGreaterThan(0);
    await expect.poll(() => telegram.webhook()?.url, POLL).toBe(`${PUBLIC_URL}${WEBHOOK_PATH}`);
    const secret = telegram.webhook()?.secret_token;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{16,256}$/);

    // the token is write-only: neither the API nor the page give it back
    const settings = await reseller.get<TelegramSettings>('/telegram/settings');
    expect(settings).toMatchObject({ enabled: true, bot_token_set: true, bot_username: STAND_IN_BOT.username, revoked: false, owner_chat_linked: false, public_url_configured: true });
    expect(JSON.stringify(settings)).not.toContain(TOKEN);
    expect(await page.content()).not.toContain(TOKEN);

    // a code for the reseller's own chat, and the t.me link that sends it
    await byTestId(page, 'telegram-link-code-button').click();
    await expect.poll(() => visibleText(byTestId(page, 'telegram-link-code')), POLL).toMatch(/^\S+$/);
    const code = await visibleText(byTestId(page, 'telegram-link-code'));
    expect(await byTestId(page, 'telegram-link-open').getAttribute('href')).toBe(`https://t.me/${STAND_IN_BOT.username}?start=${code}`);
    expect(await visibleText(byTestId(page, 'telegram-link-command'))).toBe(`/start ${code}`);

    // accessible on a phone with the code shown: no serious or critical axe finding, one h1, no sideways scroll
    const blocking = (await runAxe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(describeViolations('telegram 375px', blocking)).toEqual([]);
    expect(await headingOnes(page)).toEqual([tr('pt-BR', 'telegram.title')]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // an update without the webhook's secret is refused and links nothing
    expect(await deliver(s.server.baseUrl, `${secret}-not`, `/start ${code}`, { update: 99, message: 99 })).toBeGreaterThanOrEqual(400);
    expect((await reseller.get<TelegramSettings>('/telegram/settings')).owner_chat_linked).toBe(false);

    // Telegram delivers `/start <code>` from the reseller's chat: linked, the page sees it, the bot answers there
    expect(await deliver(s.server.baseUrl, secret!, `/start ${code}`, { update: 1, message: 10 })).toBe(200);
    await byTestId(page, 'telegram-chat-linked').waitFor({ timeout: POLL.timeout });
    expect(await byTestId(page, 'telegram-link-code').count()).toBe(0);
    expect(await byTestId(page, 'telegram-chat-unlink').isVisible()).toBe(true);
    await expect.poll(() => telegram.sentTo(OWNER_CHAT).length, POLL).toBeGreaterThan(0);
    expect((await reseller.get<TelegramSettings>('/telegram/settings')).owner_chat_linked).toBe(true);

    const linked = (await runAxe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(describeViolations('telegram 375px, chat linked', linked)).toEqual([]);

    // the chat unlinked (DELETE owner-chat): a code can be asked again
    await byTestId(page, 'telegram-chat-unlink').click();
    await byTestId(page, 'confirm-yes').click();
    await byTestId(page, 'telegram-link-code-button').waitFor({ timeout: POLL.timeout });
    expect((await reseller.get<TelegramSettings>('/telegram/settings')).owner_chat_linked).toBe(false);

    // the bot disconnected (bot_token: null): no bot, no link
    await byTestId(page, 'telegram-disconnect').click();
    await byTestId(page, 'confirm-yes').click();
    await toast(page, tr('pt-BR', 'telegram.bot.disconnected'));
    await expect.poll(() => visibleText(byTestId(page, 'telegram-bot-status')), POLL).toBe(tr('pt-BR', 'telegram.bot.statusNone').toUpperCase());
    expect(await byTestId(page, 'telegram-bot-link').count()).toBe(0);
    expect((await reseller.get<TelegramSettings>('/telegram/settings')).bot_token_set).toBe(false);
  });
});
