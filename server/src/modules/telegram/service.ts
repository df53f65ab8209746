// The Telegram module's public entry (docs/telegram.md): what other modules tell the bots, in
// their own transactions, and the settings, updates and queue the routes and main.ts use.
export { type SaleVia, tellPixApplied, tellPixWaiting, tellSale } from './news.ts';
export { tellCreditsLow } from './outbox.ts';
export { getSettings, newLinkCode, putSettings, unlinkOwnerChat } from './settings.ts';
export { onUpdate, type Update } from './updates.ts';
export { sendRound, startTelegramWorker } from './worker.ts';
