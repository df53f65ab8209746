import { withTx } from '../../db/tx.ts';
import { cursorOf } from '../../http/paging.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { validation } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { reachableFromInternet } from '../../lib/ssrf/addresses.ts';
import { sealSecret } from '../twofactor/service.ts';
import { dayStart } from '../reminders/service.ts';
import { SECRET_PURPOSE, TOKEN_PURPOSE } from './notifications.ts';
import * as repo from './repo.ts';

// An account's PIX settings (its Mercado Pago credentials, write-only; its prices), its payments
// and their figures.

export async function getSettings(deps: Deps, user: AuthUser) {
  const db = deps.database.db;
  const [s, prices] = await Promise.all([repo.settingsOf(db, user.id), repo.pricesOf(db, user.id)]);
  return {
    enabled: s?.enabled === 1,
    mercadopago_access_token_set: Boolean(s?.token_sealed),
    mercadopago_webhook_secret_set: Boolean(s?.secret_sealed),
    public_url_configured: Boolean(deps.config.publicUrl),
    notification_url_reachable: Boolean(deps.config.publicUrl && reachableFromInternet(deps.config.publicUrl)),
    notification_url: deps.config.publicUrl ? `${deps.config.publicUrl.replace(/\/+$/, '')}/api/payments/mercadopago/webhook?reseller=${user.id}` : null,
    prices: prices.map((p) => ({ package_id: p.package_id, price_cents: p.price_cents })),
  };
}

export interface SettingsInput {
  enabled?: boolean;
  mercadopago_access_token?: string | null;
  mercadopago_webhook_secret?: string | null;
  prices?: { package_id: number; price_cents: number }[];
}

export async function putSettings(deps: Deps, user: AuthUser, input: SettingsInput) {
  const token = input.mercadopago_access_token ? await sealSecret(deps, user.id, input.mercadopago_access_token.trim(), TOKEN_PURPOSE) : input.mercadopago_access_token;
  const secret = input.mercadopago_webhook_secret ? await sealSecret(deps, user.id, input.mercadopago_webhook_secret.trim(), SECRET_PURPOSE) : input.mercadopago_webhook_secret;
  await withTx(deps.database, async (trx) => {
    const own = await repo.settingsOf(trx, user.id);
    if (input.prices) {
      const ids = input.prices.map((p) => p.package_id);
      if (new Set(ids).size !== ids.length) throw validation('prices', 'one price per package', 'DUPLICATE');
      const known = new Set(await repo.existingPackages(trx, ids));
      const unknown = ids.find((id) => !known.has(id));
      if (unknown !== undefined) throw validation('prices', `package ${unknown} is not a package that can be renewed`, 'UNKNOWN_CHOICE');
      await repo.replacePrices(trx, user.id, input.prices);
    }
    const enabled = input.enabled === undefined ? (own?.enabled ?? 0) : input.enabled ? 1 : 0;
    const tokenSealed = token === undefined ? (own?.token_sealed ?? null) : token;
    const secretSealed = secret === undefined ? (own?.secret_sealed ?? null) : secret;
    // On, PIX needs all three: a charge without them could never be made or confirmed.
    if (enabled) {
      if (!tokenSealed) throw validation('mercadopago_access_token', 'needed to turn PIX on', 'REQUIRED_TO_ENABLE');
      if (!secretSealed) throw validation('mercadopago_webhook_secret', 'needed to turn PIX on', 'REQUIRED_TO_ENABLE');
      if ((input.prices ?? (await repo.pricesOf(trx, user.id))).length === 0) throw validation('prices', 'at least one price is needed to turn PIX on', 'REQUIRED_TO_ENABLE');
    }
    await repo.saveSettings(trx, { reseller_id: user.id, enabled, token_sealed: tokenSealed, secret_sealed: secretSealed, updated_at: nowSec() });
  });
  return getSettings(deps, user);
}

export function list(deps: Deps, user: AuthUser, q: repo.PaymentFilters & { page?: number; per?: number; after?: string; before?: string }) {
  return repo.listPayments(deps.database.db, user.id, q, q.page ?? 1, q.per ?? 10, cursorOf(q));
}

export type { ListedPayment } from './repo.ts';

export function exportRows(deps: Deps, user: AuthUser, q: repo.PaymentFilters) {
  return repo.iteratePayments(deps.database.db, user.id, q);
}

/** The dashboard card: received today and this month (calendar, in the reminders' time zone), and payments waiting for credits. */
export async function summary(deps: Deps, user: AuthUser) {
  const db = deps.database.db;
  const tz = deps.config.timeZone;
  const now = nowSec();
  const today = dayStart(now, tz);
  // the first of this month: back from today by its day of the month, less one
  const dom = Number(new Intl.DateTimeFormat('en-US', { timeZone: tz, day: 'numeric' }).format(new Date(now * 1000)));
  const month = dayStart(now, tz, -(dom - 1));
  const [t, m, awaiting, s] = await Promise.all([repo.receivedSince(db, user.id, today), repo.receivedSince(db, user.id, month), repo.countAwaiting(db, user.id), repo.settingsOf(db, user.id)]);
  return { enabled: s?.enabled === 1, today: t, month: m, awaiting_credits: awaiting };
}
export { applyAwaitingSoon } from './apply.ts';
export { createCharge, lineView, paymentsOpen } from './customer.ts';

/** A line as the customer side sees it (its owner and password included): the Telegram bots check their links with it. */
export const customerLineOf = (deps: Deps, lineId: number) => repo.customerLine(deps.database.db, lineId);

/** The account has its Mercado Pago access token and webhook secret (credit sales charge with them too). */
export async function mercadoPagoReady(deps: Deps, resellerId: number): Promise<boolean> {
  const s = await repo.settingsOf(deps.database.db, resellerId);
  return Boolean(s?.token_sealed && s.secret_sealed);
}
// Mercado Pago's client and an account's token, for credit sales (modules/creditsales), which charge at the parent's account.
export { type MpPayment, createPixCharge, fetchPayment } from './mercadopago.ts';
export { accountToken } from './notifications.ts';
