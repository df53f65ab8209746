import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { tellLine, tellOwner } from './outbox.ts';
import { dateTime, money, texts } from './texts.ts';

// What other modules tell the bots, in their own transactions: a sale made without the account
// (through an API key, the trial page or the bot), a PIX payment applied or waiting for credits.
// Credits low is told by the ledger (outbox.ts tellCreditsLow).

/** Who made a sale the account did not make by hand. */
export type SaleVia = { apiKey: string } | 'trial_page' | 'telegram';

export async function tellSale(
  deps: Deps,
  trx: Tx,
  s: { sellerId: number; via: SaleVia; event: 'line.created' | 'line.renewed'; line: { username: string; package_name?: string | null; exp_date: number; is_trial: number }; credits: number },
): Promise<void> {
  await tellOwner(trx, s.sellerId, (lang) => {
    const t = texts(lang);
    const via = s.via === 'trial_page' ? t.viaTrialPage : s.via === 'telegram' ? t.viaTelegram : t.viaApi(s.via.apiKey);
    return t.newsSale({
      what: s.event === 'line.created' ? 'created' : 'renewed',
      via,
      user: s.line.username,
      pkg: s.line.package_name ?? '—',
      expires: dateTime(lang, s.line.exp_date, deps.config.timeZone),
      credits: s.credits,
      trial: s.line.is_trial === 1,
    });
  });
}

/** A PIX payment renewed its line: the account hears it, and so do the chats linked to the line ("Renovado até …"). */
export async function tellPixApplied(deps: Deps, trx: Tx, p: { resellerId: number; lineId: number; username: string; amountCents: number; expDate: number }): Promise<void> {
  const tz = deps.config.timeZone;
  await tellOwner(trx, p.resellerId, (lang) => texts(lang).newsPixApplied({ user: p.username, amount: money(lang, p.amountCents), until: dateTime(lang, p.expDate, tz) }));
  await tellLine(trx, p.resellerId, p.lineId, (lang) => texts(lang).renewed(dateTime(lang, p.expDate, tz)));
}

/** A PIX payment was paid and waits for the account's credits: the account is asked for them, the customer told it is being processed. */
export async function tellPixWaiting(trx: Tx, p: { resellerId: number; lineId: number; username: string; amountCents: number }): Promise<void> {
  await tellOwner(trx, p.resellerId, (lang) => texts(lang).newsPixWaiting({ user: p.username, amount: money(lang, p.amountCents) }));
  await tellLine(trx, p.resellerId, p.lineId, (lang) => texts(lang).paidWaiting);
}
