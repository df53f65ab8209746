import { createHash, randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import type { Deps } from '../../deps.ts';
import { appError, validation } from '../../http/errors.ts';

import { nowSec } from '../../lib/clock.ts';
import { authenticateLine } from '../player/service.ts';
import { lineOfToken } from '../reminders/service.ts';
import { originalLinks, panelOrigin } from '../shortlinks/service.ts';
import { createPixCharge } from './mercadopago.ts';
import { accountToken } from './notifications.ts';
import * as repo from './repo.ts';

// The customer's side (docs/payments.md): a session of one line, opened with the line's player
// credentials (throttled as the player API is) or the signed link of a reminder. It sees its line
// and pays for its renewal; it is not a panel session and opens no panel route.

const SESSION_SECONDS = 2 * 3600;
const CHARGE_SECONDS = 30 * 60;
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function signIn(deps: Deps, body: { username?: string; password?: string; link?: string }, ip: string) {
  let lineId: number | undefined;
  if (body.link !== undefined) {
    lineId = await lineOfToken(deps, body.link, nowSec());
    if (lineId === undefined) throw appError('LINK_EXPIRED');
  } else {
    if (!body.username || !body.password) throw validation('username', 'username and password, or a link');
    const line = await authenticateLine(deps, { username: body.username, password: body.password, ip });
    if (!line) throw appError('INVALID_CREDENTIALS');
    lineId = line.id;
  }
  const line = await repo.customerLine(deps.database.db, lineId);
  if (!line || line.deleted_at !== null) throw appError('INVALID_CREDENTIALS');
  const token = `cs_${randomBytes(32).toString('base64url')}`;
  const now = nowSec();
  await repo.insertCustomerSession(deps.database.db, { token_hash: hash(token), line_id: lineId, created_at: now, expires_at: now + SESSION_SECONDS });
  return { token, expires_in: SESSION_SECONDS };
}

/** The line of a customer session (Authorization: Bearer cs_...), or 401. */
export async function customerLineId(deps: Deps, authorization: string | undefined): Promise<number> {
  const m = /^Bearer (cs_[A-Za-z0-9_-]{43})$/.exec(authorization ?? '');
  const row = m ? await repo.customerSession(deps.database.db, hash(m[1]!), nowSec()) : undefined;
  if (!row) throw appError('UNAUTHORIZED');
  return row.line_id;
}

/** Charges are possible when the account turned them on with its credentials, and the panel has a public address for Mercado Pago's notifications. */
export async function chargesOpen(deps: Deps, resellerId: number): Promise<boolean> {
  const s = await repo.settingsOf(deps.database.db, resellerId);
  return Boolean(s?.enabled === 1 && s.token_sealed && s.secret_sealed && deps.config.publicUrl);
}

/** The account's customers can renew by PIX on their page: charges open and at least one price. */
export async function paymentsOpen(deps: Deps, resellerId: number): Promise<boolean> {
  const [open, prices] = await Promise.all([chargesOpen(deps, resellerId), repo.pricesOf(deps.database.db, resellerId)]);
  return open && prices.length > 0;
}

export async function lineView(deps: Deps, lineId: number, requestOrigin: string) {
  const db = deps.database.db;
  const line = await repo.customerLine(db, lineId);
  if (!line || line.deleted_at !== null) throw appError('NOT_FOUND', { params: { what: 'Line' } });
  const [links, open, prices] = await Promise.all([originalLinks(db, line, panelOrigin(deps.config, requestOrigin)), chargesOpen(deps, line.member_id), repo.pricesOf(db, line.member_id)]);
  // a blocked line is offered nothing: a renewal would not unblock it (createCharge refuses it too)
  const offered = open && line.enabled === 1;
  return {
    username: line.username,
    exp_date: line.exp_date,
    enabled: line.enabled === 1,
    is_trial: line.is_trial === 1,
    package_id: line.package_id,
    package_name: line.package_name,
    screens: line.max_connections,
    playlist_url: links.m3u8,
    playlist_qr: `data:image/svg+xml;base64,${Buffer.from(await QRCode.toString(links.m3u8, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })).toString('base64')}`,
    reseller: { whatsapp: line.reseller_whatsapp },
    payments_enabled: offered && prices.length > 0,
    offers: offered ? prices.map((p) => ({ package_id: p.package_id, package_name: p.package_name, price_cents: p.price_cents, duration: p.official_duration, duration_in: p.official_duration_in })) : [],
  };
}

const shown = (p: repo.PaymentRow) => ({
  id: p.id,
  status: p.status,
  amount_cents: p.amount_cents,
  package_id: p.package_id,
  qr_code: p.qr_code,
  qr_code_base64: p.qr_code_base64,
  ticket_url: p.ticket_url,
  expires_at: p.expires_at,
  created_at: p.created_at,
  applied_at: p.applied_at,
  exp_after: p.exp_after,
});

/**
 * A PIX charge for renewing the session's line with one of the account's offers. The row is
 * written first (unique per line and Idempotency-Key: the same key answers the same charge) and
 * its id is Mercado Pago's X-Idempotency-Key, so asking again after a failure makes no second charge.
 * A charge Mercado Pago refused or did not answer is `failed` (the reseller's list says so) and the
 * error is the answer; the same key asks Mercado Pago again for the same row, which is pending once
 * the charge exists. A blocked line gets no charge (LINE_BLOCKED): paying would not unblock it.
 */
export async function createCharge(deps: Deps, lineId: number, packageId: number, key: string) {
  const db = deps.database.db;
  const line = await repo.customerLine(db, lineId);
  if (!line || line.deleted_at !== null) throw appError('NOT_FOUND', { params: { what: 'Line' } });
  if (line.enabled !== 1) throw appError('LINE_BLOCKED');
  const token = (await chargesOpen(deps, line.member_id)) ? await accountToken(deps, line.member_id) : undefined;
  if (!token) throw appError('NOT_CONFIGURED', { params: { what: 'PIX payments for this account' } });
  const price = await repo.priceOf(db, line.member_id, packageId);
  if (!price) throw validation('package_id', 'not one of the offers');
  const now = nowSec();
  await repo.insertPayment(db, { reseller_id: line.member_id, line_id: lineId, package_id: packageId, amount_cents: price.price_cents, idempotency_key: key, expires_at: now + CHARGE_SECONDS, created_at: now });
  let p = await repo.paymentByKey(db, lineId, key);
  if (!p) throw new Error('the payment row vanished');
  if (p.package_id !== packageId) throw appError('IDEMPOTENCY_KEY_REUSED');
  if (p.mp_payment_id !== null || (p.status !== 'pending' && p.status !== 'failed')) return shown(p);
  if (p.status === 'failed') {
    await repo.renewFailedExpiry(db, p.id, now + CHARGE_SECONDS);
    p = { ...p, expires_at: now + CHARGE_SECONDS };
  }
  let charge: Awaited<ReturnType<typeof createPixCharge>>;
  try {
    charge = await createPixCharge(deps.config.mercadopagoApiUrl, token, {
      reference: String(p.id),
      amountCents: p.amount_cents,
      description: `Renovação ${line.username}`,
      payerEmail: line.email ?? `${line.username.toLowerCase().replace(/[^a-z0-9._-]/g, '') || 'cliente'}@clientes.${new URL(deps.config.publicUrl!).hostname}`,
      notificationUrl: `${deps.config.publicUrl!.replace(/\/+$/, '')}/api/payments/mercadopago/webhook?reseller=${line.member_id}`,
      expiresAt: p.expires_at,
    });
  } catch (err) {
    await repo.markFailed(db, p.id, err instanceof Error ? err.message : String(err));
    throw err;
  }
  await repo.recordCharge(db, p.id, { mp_payment_id: charge.id, qr_code: charge.qr_code, qr_code_base64: charge.qr_code_base64, ticket_url: charge.ticket_url, last_error: null });
  return shown({ ...p, status: 'pending', qr_code: charge.qr_code, qr_code_base64: charge.qr_code_base64, ticket_url: charge.ticket_url });
}

export async function paymentView(deps: Deps, lineId: number, id: number) {
  const p = await repo.paymentOfLine(deps.database.db, lineId, id);
  if (!p) throw appError('NOT_FOUND', { params: { what: 'Payment' } });
  return shown(p);
}
