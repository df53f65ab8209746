/** The Telegram feature's query keys. */
export const telegramKeys = {
  /** TelegramSettings: GET /telegram/settings. */
  settings: () => ['telegram', 'settings'] as const,
};
