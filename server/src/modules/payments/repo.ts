import { sql } from 'kysely';
import { keysetRows } from '../../db/keyset.ts';
import { type PageCursor, paginate } from '../../db/paginate.ts';
import type { Tx } from '../../db/tx.ts';
import type { PaymentStatus, PaymentsTable } from '../../db/types.ts';
import type { AuthUser } from '../../domain/auth-user.ts';

// PIX payments: accounts' Mercado Pago settings and prices, charges, customer sessions.

export const settingsOf = (db: Tx, resellerId: number) => db.selectFrom('payment_settings').selectAll().where('reseller_id', '=', resellerId).executeTakeFirst();

export async function saveSettings(db: Tx, row: { reseller_id: number; enabled: number; token_sealed: string | null; secret_sealed: string | null; updated_at: number }) {
  const { reseller_id, ...rest } = row;
  await db.insertInto('payment_settings').values(row).onConflict((oc) => oc.column('reseller_id').doUpdateSet(rest)).execute();
}

/** The account's prices with their packages (non-trial packages only), cheapest first. */
export const pricesOf = (db: Tx, resellerId: number) =>
  db
    .selectFrom('payment_prices as pp')
    .innerJoin('packages as p', 'p.id', 'pp.package_id')
    .select(['pp.package_id', 'pp.price_cents', 'p.package_name', 'p.official_duration', 'p.official_duration_in'])
    .where('pp.reseller_id', '=', resellerId)
    .where('p.is_trial', '=', 0)
    .orderBy('pp.price_cents')
    .execute();

export async function replacePrices(db: Tx, resellerId: number, prices: { package_id: number; price_cents: number }[]) {
  await db.deleteFrom('payment_prices').where('reseller_id', '=', resellerId).execute();
  if (prices.length) await db.insertInto('payment_prices').values(prices.map((p) => ({ ...p, reseller_id: resellerId }))).execute();
}

export const priceOf = (db: Tx, resellerId: number, packageId: number) =>
  db.selectFrom('payment_prices').select('price_cents').where('reseller_id', '=', resellerId).where('package_id', '=', packageId).executeTakeFirst();

/** The packages (non-trial) that exist among these ids. */
export const existingPackages = async (db: Tx, ids: number[]) =>
  ids.length ? (await db.selectFrom('packages').select('id').where('id', 'in', ids).where('is_trial', '=', 0).execute()).map((r) => r.id) : [];

// ---- customer sessions

export async function insertCustomerSession(db: Tx, row: { token_hash: string; line_id: number; created_at: number; expires_at: number }) {
  await db.insertInto('customer_sessions').values(row).execute();
}

export const customerSession = (db: Tx, tokenHash: string, now: number) =>
  db.selectFrom('customer_sessions').select('line_id').where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();

export const pruneCustomerSessions = (db: Tx, now: number) => db.deleteFrom('customer_sessions').where('expires_at', '<', now).execute();

/** The line a customer sees: its own columns, its package and its owner's contact (never the owner's username: no way to reach anyone). */
export const customerLine = (db: Tx, lineId: number) =>
  db
    .selectFrom('lines as l')
    .leftJoin('packages as p', 'p.id', 'l.package_id')
    .innerJoin('resellers as r', 'r.id', 'l.member_id')
    .select(['l.id', 'l.username', 'l.password', 'l.exp_date', 'l.enabled', 'l.deleted_at', 'l.system', 'l.is_trial', 'l.member_id', 'l.email', 'l.max_connections', 'l.package_id', 'p.package_name', 'r.whatsapp as reseller_whatsapp'])
    .where('l.id', '=', lineId)
    .executeTakeFirst();

// ---- payments

const PUBLIC = ['id', 'line_id', 'package_id', 'amount_cents', 'status', 'qr_code', 'qr_code_base64', 'ticket_url', 'expires_at', 'created_at', 'paid_at', 'applied_at', 'exp_after'] as const;
export type PaymentRow = Omit<Pick<PaymentsTable, (typeof PUBLIC)[number]>, 'id'> & { id: number };

/** A new charge, before Mercado Pago is asked: its id is the charge's idempotency key there. */
export async function insertPayment(db: Tx, row: { reseller_id: number; line_id: number; package_id: number; amount_cents: number; idempotency_key: string; expires_at: number; created_at: number }): Promise<number | undefined> {
  const made = await db
    .insertInto('payments')
    .values({ ...row, status: 'pending' })
    .onConflict((oc) => oc.columns(['line_id', 'idempotency_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return made ? Number(made.id) : undefined;
}

export const paymentByKey = (db: Tx, lineId: number, key: string) =>
  db.selectFrom('payments').select([...PUBLIC, 'mp_payment_id', 'reseller_id']).where('line_id', '=', lineId).where('idempotency_key', '=', key).executeTakeFirst();

export const paymentOfLine = (db: Tx, lineId: number, id: number) =>
  db.selectFrom('payments').select([...PUBLIC, 'mp_payment_id']).where('line_id', '=', lineId).where('id', '=', id).executeTakeFirst() as Promise<(PaymentRow & { mp_payment_id: string | null }) | undefined>;

/** Mercado Pago's charge for the row. A row marked failed is pending again: the charge exists after all. */
export async function recordCharge(db: Tx, id: number, c: { mp_payment_id: string; qr_code: string | null; qr_code_base64: string | null; ticket_url: string | null; last_error?: null }) {
  await db
    .updateTable('payments')
    .set({ ...c, status: sql<PaymentStatus>`case when status = 'failed' then 'pending' else status end` })
    .where('id', '=', id)
    .execute();
}

/**
 * The charge could not be made at Mercado Pago (no answer, or a refusal): the row is `failed`, with
 * why. Only while it has no Mercado Pago payment: a concurrent attempt that got one wins.
 */
export async function markFailed(db: Tx, id: number, error: string) {
  await db
    .updateTable('payments')
    .set({ status: 'failed', last_error: error.slice(0, 300) })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'failed'])
    .where('mp_payment_id', 'is', null)
    .execute();
}

/** A failed row asked for again (same Idempotency-Key) gets a new 30 minutes to be paid in. */
export async function renewFailedExpiry(db: Tx, id: number, expiresAt: number) {
  await db.updateTable('payments').set({ expires_at: expiresAt }).where('id', '=', id).where('status', '=', 'failed').where('mp_payment_id', 'is', null).execute();
}

export async function recordError(db: Tx, id: number, error: string) {
  await db.updateTable('payments').set({ last_error: error.slice(0, 300) }).where('id', '=', id).execute();
}

export interface FullPayment {
  id: number;
  reseller_id: number;
  line_id: number;
  package_id: number;
  amount_cents: number;
  status: PaymentStatus;
  mp_payment_id: string | null;
  expires_at: number;
  created_at: number;
}
const FULL = ['id', 'reseller_id', 'line_id', 'package_id', 'amount_cents', 'status', 'mp_payment_id', 'expires_at', 'created_at'] as const;

export const paymentById = (db: Tx, id: number) => db.selectFrom('payments').select(FULL).where('id', '=', id).executeTakeFirst() as Promise<FullPayment | undefined>;

/** The payment row, locked for the rest of the transaction on PostgreSQL (SQLite's write lock covers it). */
export const lockPayment = (db: Tx, id: number, dialect: 'sqlite' | 'postgres') => {
  const q = db.selectFrom('payments').select(FULL).where('id', '=', id);
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst() as Promise<FullPayment | undefined>;
};

export async function setStatus(db: Tx, id: number, from: PaymentStatus[], to: PaymentStatus, extra: Partial<Pick<PaymentsTable, 'paid_at' | 'applied_at' | 'exp_before' | 'exp_after' | 'last_error' | 'checked_at'>> = {}): Promise<boolean> {
  const res = await db.updateTable('payments').set({ status: to, ...extra }).where('id', '=', id).where('status', 'in', from).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function markChecked(db: Tx, id: number, now: number) {
  await db.updateTable('payments').set({ checked_at: now }).where('id', '=', id).execute();
}

/** Pending charges created before `before`, not asked about since `checkedBefore` (the poller). */
export const stalePending = (db: Tx, before: number, checkedBefore: number, limit: number) =>
  db
    .selectFrom('payments')
    .select(FULL)
    .where('status', '=', 'pending')
    .where('created_at', '<', before)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', checkedBefore)]))
    .orderBy('created_at')
    .limit(limit)
    .execute() as Promise<FullPayment[]>;

/** Paid payments whose renewal waits for the account's credits, oldest first. */
export const awaitingCredits = (db: Tx, limit: number, resellerId?: number) => {
  let q = db.selectFrom('payments').select(FULL).where('status', '=', 'paid_awaiting_credits');
  if (resellerId !== undefined) q = q.where('reseller_id', '=', resellerId);
  return q.orderBy('created_at').limit(limit).execute() as Promise<FullPayment[]>;
};

/** The line's owner as the actor of its renewal (its balance pays, as a panel renewal would). */
export async function ownerAsActor(db: Tx, resellerId: number): Promise<AuthUser | undefined> {
  const row = await db
    .selectFrom('resellers as r')
    .innerJoin('groups as g', 'g.group_id', 'r.member_group_id')
    .select(['r.id', 'r.username', 'r.credits', 'g.type'])
    .where('r.id', '=', resellerId)
    .where('r.deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? { id: row.id, username: row.username, credits: row.credits, type: row.type as AuthUser['type'], sessionId: 0, twoFactorEnabled: false } : undefined;
}

export interface PaymentFilters {
  status?: PaymentStatus;
  line?: string;
}

function filtered(db: Tx, resellerId: number, f: PaymentFilters) {
  let base = db.selectFrom('payments as pm').where('pm.reseller_id', '=', resellerId);
  if (f.status) base = base.where('pm.status', '=', f.status);
  if (f.line) {
    const line = f.line;
    base = base.where('pm.line_id', 'in', (eb) => eb.selectFrom('lines').select('id').where('member_id', '=', resellerId).where('username', '=', line));
  }
  return base;
}

const LISTED = ['pm.id', 'pm.line_id', 'l.username', 'p.package_name', 'pm.amount_cents', 'pm.status', 'pm.created_at', 'pm.paid_at', 'pm.applied_at', 'pm.exp_after', 'pm.mp_payment_id', 'pm.last_error'] as const;

const withNames = <Q extends ReturnType<typeof filtered>>(q: Q) => q.innerJoin('lines as l', 'l.id', 'pm.line_id').leftJoin('packages as p', 'p.id', 'pm.package_id').select(LISTED);

/** An account's payments, newest first, with the line's username; filtered and paged in SQL. */
export function listPayments(db: Tx, resellerId: number, f: PaymentFilters, page: number, per: number, cursor?: PageCursor) {
  return paginate(filtered(db, resellerId, f), withNames, { db, page, per, cursor, order: { column: 'pm.id', direction: 'desc' }, tiebreak: 'pm.id' });
}

export type ListedPayment = Awaited<ReturnType<typeof listPayments>>['data'][number];

/** Every payment matching the filters, in id order, a batch at a time (the export). */
export function iteratePayments(db: Tx, resellerId: number, f: PaymentFilters): AsyncGenerator<ListedPayment> {
  return keysetRows((last, limit) => withNames(filtered(db, resellerId, f).where('pm.id', '>', last)).orderBy('pm.id').limit(limit).execute() as Promise<ListedPayment[]>);
}

/** Received since `since`: payments paid (applied or waiting for credits), count and sum. */
export async function receivedSince(db: Tx, resellerId: number, since: number) {
  const row = await db
    .selectFrom('payments')
    .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(amount_cents), 0)`.as('cents')])
    .where('reseller_id', '=', resellerId)
    .where('status', 'in', ['applied', 'paid_awaiting_credits'])
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), cents: Number(row.cents) };
}

export async function countAwaiting(db: Tx, resellerId: number) {
  const row = await db.selectFrom('payments').select(sql<number>`count(*)`.as('n')).where('reseller_id', '=', resellerId).where('status', '=', 'paid_awaiting_credits').executeTakeFirstOrThrow();
  return Number(row.n);
}
