import { describe, expect, it } from 'vitest';
import { botBody, botFormKey, botValues, isLowCredits, looksLikeToken } from './form';
import type { TelegramSettings } from './types';

const SAVED: TelegramSettings = {
  enabled: true,
  bot_token_set: true,
  bot_username: 'loja_bot',
  bot_name: 'Loja',
  bot_link: 'https://t.me/loja_bot',
  revoked: false,
  owner_chat_linked: false,
  credits_low_threshold: 10,
  public_url_configured: true,
  linked_chats: 3,
};

describe('the bot form', () => {
  it('starts from the saved settings with an empty token (write-only)', () => {
    expect(botValues(SAVED)).toEqual({ bot_token: '', enabled: true, credits_low_threshold: 10 });
  });

  it('sends the token only when one was pasted, trimmed', () => {
    expect(botBody({ bot_token: '  ', enabled: false, credits_low_threshold: 0 })).toEqual({ enabled: false, credits_low_threshold: 0 });
    expect(botBody({ bot_token: ' 123456:AAbbCCddEEffGGhhIIjjKK_-x \n', enabled: true, credits_low_threshold: 5 })).toEqual({
      enabled: true,
      credits_low_threshold: 5,
      bot_token: '123456:AAbbCCddEEffGGhhIIjjKK_-x',
    });
  });

  it('checks a token and a threshold loosely', () => {
    expect(looksLikeToken('7000001:AAE-e2e_stand_in_token_abcdefgh')).toBe(true);
    expect(looksLikeToken('AAE-e2e_stand_in_token_abcdefgh')).toBe(false);
    expect(looksLikeToken('7000001:short')).toBe(false);
    expect([0, 1_000_000].every(isLowCredits)).toBe(true);
    expect([-1, 1.5, 1_000_001, ''].some((v) => isLowCredits(v as number | ''))).toBe(false);
  });

  it('starts again when a saved value changes, not when a poll brings the same ones', () => {
    expect(botFormKey({ ...SAVED, owner_chat_linked: true, linked_chats: 4 })).toBe(botFormKey(SAVED));
    expect(botFormKey({ ...SAVED, enabled: false })).not.toBe(botFormKey(SAVED));
  });
});
