import { sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';

const ENDPOINT = ['id', 'url', 'events', 'include_credentials', 'credits_low_threshold', 'created_at'] as const;
const DELIVERY = ['id', 'event_id', 'type', 'state', 'attempts', 'created_at', 'next_attempt_at', 'last_attempt_at', 'last_status', 'last_answer', 'delivered_at'] as const;

export const liveEndpoints = (db: Tx, resellerId: number) =>
  db.selectFrom('webhook_endpoints').select(ENDPOINT).where('reseller_id', '=', resellerId).where('deleted_at', 'is', null).orderBy('id', 'desc').execute();

export const countEndpoints = async (db: Tx, resellerId: number) =>
  Number((await db.selectFrom('webhook_endpoints').select(sql<number>`count(*)`.as('n')).where('reseller_id', '=', resellerId).where('deleted_at', 'is', null).executeTakeFirstOrThrow()).n);

export async function insertEndpoint(db: Tx, row: { reseller_id: number; url: string; events: string; secret_sealed: string; include_credentials: number; credits_low_threshold: number | null; created_at: number }) {
  return Number((await db.insertInto('webhook_endpoints').values(row).returning('id').executeTakeFirstOrThrow()).id);
}

export const ownEndpoint = (db: Tx, resellerId: number, id: number) =>
  db.selectFrom('webhook_endpoints').select(['id', 'reseller_id', 'url', 'secret_sealed']).where('id', '=', id).where('reseller_id', '=', resellerId).where('deleted_at', 'is', null).executeTakeFirst();

/** Removes an endpoint: what was waiting for it is cancelled. */
export async function deleteEndpoint(db: Tx, id: number, now: number) {
  await db.updateTable('webhook_endpoints').set({ deleted_at: now }).where('id', '=', id).execute();
  await db.updateTable('webhook_deliveries').set({ state: 'cancelled', lease_until: null }).where('endpoint_id', '=', id).where('state', '=', 'pending').execute();
}

/** `events` holds a JSON array of names: one of them, quoted, is a plain substring test. */
const subscribedTo = (type: string) => `%${JSON.stringify(type)}%`;

/** The live endpoints of an account subscribed to `type` (the emitter's read, inside the change's transaction). */
export const subscribers = (db: Tx, resellerId: number, type: string) =>
  db
    .selectFrom('webhook_endpoints')
    .select(['id', 'include_credentials', 'credits_low_threshold'])
    .where('reseller_id', '=', resellerId)
    .where('deleted_at', 'is', null)
    .where('events', 'like', subscribedTo(type))
    .execute();

export async function insertDelivery(db: Tx, row: { endpoint_id: number; event_id: string; type: string; body: string; created_at: number }) {
  const made = await db
    .insertInto('webhook_deliveries')
    .values({ ...row, state: 'pending', next_attempt_at: row.created_at })
    .returning(DELIVERY)
    .executeTakeFirstOrThrow();
  return made;
}

export const lastDeliveries = (db: Tx, endpointId: number, limit = 50) =>
  db.selectFrom('webhook_deliveries').select(DELIVERY).where('endpoint_id', '=', endpointId).orderBy('id', 'desc').limit(limit).execute();

export const deliveryOf = (db: Tx, endpointId: number, id: number) =>
  db.selectFrom('webhook_deliveries').select(['id', 'event_id', 'type', 'body']).where('id', '=', id).where('endpoint_id', '=', endpointId).executeTakeFirst();

export interface DueDelivery {
  id: number;
  endpoint_id: number;
  event_id: string;
  body: string;
  attempts: number;
  created_at: number;
  url: string;
  reseller_id: number;
  secret_sealed: string;
}

/**
 * Deliveries due now that are first in line for their endpoint (no earlier one still pending) and
 * not leased by a worker, oldest first.
 */
export function dueDeliveries(db: Tx, now: number, limit: number): Promise<DueDelivery[]> {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.id', 'd.endpoint_id', 'd.event_id', 'd.body', 'd.attempts', 'd.created_at', 'e.url', 'e.reseller_id', 'e.secret_sealed'])
    .where('d.state', '=', 'pending')
    .where('e.deleted_at', 'is', null)
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('webhook_deliveries as p').select('p.id').whereRef('p.endpoint_id', '=', 'd.endpoint_id').where('p.state', '=', 'pending').whereRef('p.id', '<', 'd.id'))),
    )
    .orderBy('d.id')
    .limit(limit)
    .execute() as Promise<DueDelivery[]>;
}

/** Takes a delivery for `seconds` under `token` (one statement: of two workers, one gets it). */
export async function lease(db: Tx, id: number, now: number, seconds: number, token: string): Promise<boolean> {
  const res = await db
    .updateTable('webhook_deliveries')
    .set({ lease_until: now + seconds, lease_token: token })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

// An outcome is recorded only by the lease's holder, and only while the delivery is still pending:
// a worker whose lease ran out (another sent it meanwhile) or whose endpoint was removed changes nothing.

export async function recordDelivered(db: Tx, id: number, token: string, now: number, status: number) {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ state: 'delivered', attempts: eb('attempts', '+', 1), last_attempt_at: now, last_status: status, last_answer: null, delivered_at: now, lease_until: null, lease_token: null }))
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('lease_token', '=', token)
    .execute();
}

export async function recordFailed(db: Tx, id: number, token: string, now: number, status: number | null, answer: string, next: number | 'give_up') {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      state: next === 'give_up' ? 'gave_up' : 'pending',
      attempts: eb('attempts', '+', 1),
      last_attempt_at: now,
      last_status: status,
      last_answer: answer.slice(0, 300),
      next_attempt_at: next === 'give_up' ? now : next,
      lease_until: null,
      lease_token: null,
    }))
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('lease_token', '=', token)
    .execute();
}

export async function pruneDeliveries(db: Tx, before: number, now: number) {
  // an event written by a change that read the endpoint just before it was removed
  await db
    .updateTable('webhook_deliveries')
    .set({ state: 'cancelled', lease_until: null, lease_token: null })
    .where('state', '=', 'pending')
    .where('endpoint_id', 'in', (eb) => eb.selectFrom('webhook_endpoints').select('id').where('deleted_at', 'is not', null))
    .execute();
  await db.deleteFrom('webhook_deliveries').where('state', 'in', ['delivered', 'gave_up', 'cancelled']).where('created_at', '<', before).execute();
  // expiries a week past have nothing more to say
  await db.deleteFrom('line_expiry_marks').where('exp_date', '<', now - 8 * 86_400).execute();
}

/** Accounts with a live endpoint subscribed to `type`. */
export async function ownersSubscribed(db: Tx, type: string): Promise<number[]> {
  const rows = await db.selectFrom('webhook_endpoints').select('reseller_id').distinct().where('deleted_at', 'is', null).where('events', 'like', subscribedTo(type)).execute();
  return rows.map((r) => r.reseller_id);
}

const EVENT_LINE = ['id', 'username', 'password', 'created_at', 'exp_date', 'member_id', 'reseller_notes', 'whatsapp', 'max_connections', 'enabled', 'is_trial', 'system', 'package_id'] as const;

/**
 * An owner's live, enabled lines whose expiry is in [from, to) and that have no `kind` mark for
 * that expiry yet, soonest first (the owner's expiry index, lines_member_exp).
 */
export function unmarkedExpiries(db: Tx, ownerId: number, from: number, to: number, kind: string, limit: number) {
  return db
    .selectFrom('lines as l')
    .select(EVENT_LINE.map((c) => `l.${c}` as const))
    .where('l.member_id', '=', ownerId)
    .where('l.exp_date', '>=', from)
    .where('l.exp_date', '<', to)
    .where('l.enabled', '=', 1)
    .where('l.deleted_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('line_expiry_marks as m').select('m.line_id').whereRef('m.line_id', '=', 'l.id').whereRef('m.exp_date', '=', 'l.exp_date').where('m.kind', '=', kind))),
    )
    .orderBy('l.exp_date')
    .orderBy('l.id')
    .limit(limit)
    .execute();
}

/** These lines' expiry and state now (read again inside the transaction that marks them). */
export const expiryNow = (db: Tx, ids: number[]) => db.selectFrom('lines').select(['id', 'exp_date', 'enabled', 'deleted_at']).where('id', 'in', ids).execute();

/** Marks a line's expiry; false when it was marked already (another scheduler got there first). */
export async function mark(db: Tx, lineId: number, expDate: number, kind: string, now: number): Promise<boolean> {
  const row = await db
    .insertInto('line_expiry_marks')
    .values({ line_id: lineId, exp_date: expDate, kind, created_at: now })
    .onConflict((oc) => oc.columns(['line_id', 'exp_date', 'kind']).doNothing())
    .returning('line_id')
    .executeTakeFirst();
  return row !== undefined;
}
