import { sql } from 'kysely';
import { type PageCursor, paginate } from '../../db/paginate.ts';
import type { Tx } from '../../db/tx.ts';
import type { CreditPurchasesTable, PaymentStatus } from '../../db/types.ts';

// Credit sales (docs/payments.md, "Credit sales"): a parent's offer to its direct sub-resellers and
// their purchases, each a PIX charge at the parent's Mercado Pago.

export const offerOf = (db: Tx, resellerId: number) =>
  db.selectFrom('credit_sale_settings').select(['enabled', 'price_cents_per_credit', 'min_credits']).where('reseller_id', '=', resellerId).executeTakeFirst();

export async function saveOffer(db: Tx, row: { reseller_id: number; enabled: number; price_cents_per_credit: number; min_credits: number; updated_at: number }) {
  const { reseller_id, ...rest } = row;
  await db.insertInto('credit_sale_settings').values(row).onConflict((oc) => oc.column('reseller_id').doUpdateSet(rest)).execute();
}

/** The account (live) with its role and its parent. */
export const accountOf = (db: Tx, id: number) =>
  db
    .selectFrom('resellers as r')
    .innerJoin('groups as g', 'g.group_id', 'r.member_group_id')
    .select(['r.id', 'r.username', 'r.owner_id', 'g.type'])
    .where('r.id', '=', id)
    .where('r.deleted_at', 'is', null)
    .executeTakeFirst();

export interface Purchase {
  id: number;
  buyer_id: number;
  seller_id: number;
  credits: number;
  amount_cents: number;
  status: PaymentStatus;
  mp_payment_id: string | null;
  qr_code: string | null;
  qr_code_base64: string | null;
  expires_at: number;
  created_at: number;
  paid_at: number | null;
  applied_at: number | null;
}
const FULL = ['id', 'buyer_id', 'seller_id', 'credits', 'amount_cents', 'status', 'mp_payment_id', 'qr_code', 'qr_code_base64', 'expires_at', 'created_at', 'paid_at', 'applied_at'] as const;

/** A new purchase, before Mercado Pago is asked (unique per buyer and Idempotency-Key: a repeat inserts nothing). */
export async function insertPurchase(db: Tx, row: { buyer_id: number; seller_id: number; credits: number; amount_cents: number; idempotency_key: string; expires_at: number; created_at: number }) {
  await db
    .insertInto('credit_purchases')
    .values({ ...row, status: 'pending' })
    .onConflict((oc) => oc.columns(['buyer_id', 'idempotency_key']).doNothing())
    .execute();
}

export const purchaseByKey = (db: Tx, buyerId: number, key: string) =>
  db.selectFrom('credit_purchases').select(FULL).where('buyer_id', '=', buyerId).where('idempotency_key', '=', key).executeTakeFirst() as Promise<Purchase | undefined>;

export const purchaseById = (db: Tx, id: number) => db.selectFrom('credit_purchases').select(FULL).where('id', '=', id).executeTakeFirst() as Promise<Purchase | undefined>;

/** The purchase row, locked for the rest of the transaction on PostgreSQL (SQLite's write lock covers it). */
export const lockPurchase = (db: Tx, id: number, dialect: 'sqlite' | 'postgres') => {
  const q = db.selectFrom('credit_purchases').select(FULL).where('id', '=', id);
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst() as Promise<Purchase | undefined>;
};

/** Mercado Pago's charge for the row. A row marked failed is pending again: the charge exists after all. */
export async function recordCharge(db: Tx, id: number, c: { mp_payment_id: string; qr_code: string | null; qr_code_base64: string | null }) {
  await db
    .updateTable('credit_purchases')
    .set({ ...c, last_error: null, status: sql<PaymentStatus>`case when status = 'failed' then 'pending' else status end` })
    .where('id', '=', id)
    .execute();
}

/** Records Mercado Pago's payment id on a row that has none yet (a notification for a charge whose answer was lost). */
export async function recordPaymentId(db: Tx, id: number, mpPaymentId: string) {
  await db
    .updateTable('credit_purchases')
    .set({ mp_payment_id: mpPaymentId, status: sql<PaymentStatus>`case when status = 'failed' then 'pending' else status end` })
    .where('id', '=', id)
    .where('mp_payment_id', 'is', null)
    .execute();
}

export async function markFailed(db: Tx, id: number, error: string) {
  await db
    .updateTable('credit_purchases')
    .set({ status: 'failed', last_error: error.slice(0, 300) })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'failed'])
    .where('mp_payment_id', 'is', null)
    .execute();
}

export async function renewFailedExpiry(db: Tx, id: number, expiresAt: number) {
  await db.updateTable('credit_purchases').set({ expires_at: expiresAt }).where('id', '=', id).where('status', '=', 'failed').where('mp_payment_id', 'is', null).execute();
}

export async function recordError(db: Tx, id: number, error: string) {
  await db.updateTable('credit_purchases').set({ last_error: error.slice(0, 300) }).where('id', '=', id).execute();
}

export async function setStatus(db: Tx, id: number, from: PaymentStatus[], to: PaymentStatus, extra: Partial<Pick<CreditPurchasesTable, 'paid_at' | 'applied_at' | 'last_error' | 'checked_at'>> = {}): Promise<boolean> {
  const res = await db.updateTable('credit_purchases').set({ status: to, ...extra }).where('id', '=', id).where('status', 'in', from).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function markChecked(db: Tx, id: number, now: number) {
  await db.updateTable('credit_purchases').set({ checked_at: now }).where('id', '=', id).execute();
}

/** Pending purchases created before `before`, not asked about since `checkedBefore` (the poller), oldest first. */
export const stalePending = (db: Tx, before: number, checkedBefore: number, limit: number) =>
  db
    .selectFrom('credit_purchases')
    .select(FULL)
    .where('status', '=', 'pending')
    .where('created_at', '<', before)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', checkedBefore)]))
    .orderBy('created_at')
    .limit(limit)
    .execute() as Promise<Purchase[]>;

/** Paid purchases waiting for the seller's credits, oldest first (one seller's: its index range). */
export const awaitingCredits = (db: Tx, limit: number, sellerId?: number) =>
  (sellerId === undefined
    ? db.selectFrom('credit_purchases').select(FULL).where('status', '=', 'paid_awaiting_credits').orderBy('created_at')
    : db.selectFrom('credit_purchases').select(FULL).where('seller_id', '=', sellerId).where('status', '=', 'paid_awaiting_credits').orderBy('id')
  )
    .limit(limit)
    .execute() as Promise<Purchase[]>;

export async function countAwaiting(db: Tx, sellerId: number) {
  const row = await db.selectFrom('credit_purchases').select(sql<number>`count(*)`.as('n')).where('seller_id', '=', sellerId).where('status', '=', 'paid_awaiting_credits').executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface PurchaseFilters {
  direction?: 'bought' | 'sold';
  status?: PaymentStatus;
}

function filtered(db: Tx, accountId: number, f: PurchaseFilters) {
  let base = db.selectFrom('credit_purchases as cp');
  // both directions: two index ranges (buyer, seller), an OR the engines read as a union of them
  if (f.direction === 'bought') base = base.where('cp.buyer_id', '=', accountId);
  else if (f.direction === 'sold') base = base.where('cp.seller_id', '=', accountId);
  else base = base.where((eb) => eb.or([eb('cp.buyer_id', '=', accountId), eb('cp.seller_id', '=', accountId)]));
  if (f.status) base = base.where('cp.status', '=', f.status);
  return base;
}

const withNames = <Q extends ReturnType<typeof filtered>>(q: Q) =>
  q
    .innerJoin('resellers as b', 'b.id', 'cp.buyer_id')
    .innerJoin('resellers as s', 's.id', 'cp.seller_id')
    .select(['cp.id', 'cp.buyer_id', 'b.username as buyer', 'cp.seller_id', 's.username as seller', 'cp.credits', 'cp.amount_cents', 'cp.status', 'cp.created_at', 'cp.paid_at', 'cp.applied_at', 'cp.mp_payment_id', 'cp.last_error']);

/** The account's purchases and sales, newest first, filtered and paged in SQL. */
export function listPurchases(db: Tx, accountId: number, f: PurchaseFilters, page: number, per: number, cursor?: PageCursor) {
  return paginate(filtered(db, accountId, f), withNames, { db, page, per, cursor, order: { column: 'cp.id', direction: 'desc' }, tiebreak: 'cp.id' });
}

export type ListedPurchase = Awaited<ReturnType<typeof listPurchases>>['data'][number];
