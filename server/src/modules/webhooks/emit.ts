import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/tx.ts';
import { nowSec } from '../../lib/clock.ts';
import type { EventType } from './events.ts';
import * as repo from './repo.ts';

// Events are written in the transaction of the change they report: an event exists if and only if
// its change committed. The webhook worker sends them (worker.ts).

/** The body every endpoint gets: `{id, type, created_at, data}`. */
export function eventBody(eventId: string, type: EventType, createdAt: number, data: unknown): string {
  return JSON.stringify({ id: eventId, type, created_at: createdAt, data });
}

async function emit(trx: Tx, resellerId: number, type: EventType, dataFor: (endpoint: { include_credentials: number; credits_low_threshold: number | null }) => unknown | undefined) {
  const endpoints = await repo.subscribers(trx, resellerId, type);
  if (endpoints.length === 0) return;
  const eventId = `evt_${randomUUID()}`;
  const at = nowSec();
  for (const e of endpoints) {
    const data = dataFor(e);
    if (data === undefined) continue;
    await repo.insertDelivery(trx, { endpoint_id: e.id, event_id: eventId, type, body: eventBody(eventId, type, at, data), created_at: at });
  }
}

/** line.created, line.renewed, line.blocked, line.expiring, line.expired: the line as the API shows it, its password only to endpoints that asked for credentials. */
export function emitLineEvent(trx: Tx, ownerId: number, type: 'line.created' | 'line.renewed' | 'line.blocked' | 'line.expiring' | 'line.expired', line: { password: string }) {
  return emit(trx, ownerId, type, (e) => {
    if (e.include_credentials === 1) return line;
    const { password: _password, ...rest } = line;
    return rest;
  });
}

/** credits.low: the balance went from `before` to under an endpoint's threshold. */
export function emitCreditsLow(trx: Tx, resellerId: number, before: number, after: number) {
  return emit(trx, resellerId, 'credits.low', (e) =>
    e.credits_low_threshold !== null && after < e.credits_low_threshold && before >= e.credits_low_threshold ? { reseller_id: resellerId, balance: after, threshold: e.credits_low_threshold } : undefined,
  );
}

/** payment.approved (status applied or paid_awaiting_credits) and payment.failed (expired or rejected): the payment as the payments list shows it. */
export function emitPaymentEvent(trx: Tx, resellerId: number, type: 'payment.approved' | 'payment.failed', payment: Record<string, unknown>) {
  return emit(trx, resellerId, type, () => payment);
}

/** credits.purchase_waiting (to the seller: a sub-reseller paid, the seller lacks the credits) and credits.purchased (to both: the credits moved): the purchase as its list shows it. */
export function emitCreditPurchaseEvent(trx: Tx, resellerId: number, type: 'credits.purchase_waiting' | 'credits.purchased', purchase: Record<string, unknown>) {
  return emit(trx, resellerId, type, () => purchase);
}
