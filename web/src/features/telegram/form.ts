import type { TelegramSettings, TelegramSettingsBody } from './types';

/** The bot card's form values (the token is write-only: the input starts empty). */
export interface BotValues {
  bot_token: string;
  enabled: boolean;
  credits_low_threshold: number | '';
}

export const MAX_LOW_CREDITS = 1_000_000;

/** What @BotFather hands out: `<bot id>:<secret>` (a loose check: Telegram itself says whether it is valid). */
const TOKEN = /^\d+:[\w-]{20,}$/;

export const looksLikeToken = (token: string): boolean => TOKEN.test(token.trim());

export const isLowCredits = (v: number | ''): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_LOW_CREDITS;

export function botValues(saved: TelegramSettings): BotValues {
  return { bot_token: '', enabled: saved.enabled, credits_low_threshold: saved.credits_low_threshold };
}

/** The form's identity: it starts again from the saved values when one of them changes (not when a poll brings the same). */
export function botFormKey(saved: TelegramSettings): string {
  return JSON.stringify([saved.enabled, saved.bot_token_set, saved.credits_low_threshold, saved.bot_username]);
}

/** The PUT's body: the token only when one was pasted (an empty input keeps the saved one). */
export function botBody(v: BotValues): TelegramSettingsBody {
  const token = v.bot_token.trim();
  return {
    enabled: v.enabled,
    ...(isLowCredits(v.credits_low_threshold) ? { credits_low_threshold: v.credits_low_threshold } : {}),
    ...(token ? { bot_token: token } : {}),
  };
}
