import { nowSec } from '../../lib/clock.ts';
import { emitCreditsLow } from '../webhooks/emit.ts';
import type { Dialect } from '../../db/connection.ts';
import type { Tx } from '../../db/tx.ts';
import { appError } from '../../http/errors.ts';
import * as repo from './balance-repo.ts';

export interface Movement {
  resellerId: number;
  amount: number; // always positive; the direction is the function
  reason: string;
  actorId: number;
  counterpartyId?: number | null;
  lineId?: number | null;
  p2pAccountId?: number | null;
  idempotencyKey?: string | null;
}

/** Balances are 32-bit integers on PostgreSQL; a credit that would pass this is refused. */
export const MAX_BALANCE = 2_147_483_647;

/**
 * On PostgreSQL, lock the reseller rows of a transfer in id order so two transfers never deadlock.
 * FOR NO KEY UPDATE, not FOR UPDATE: inserting a line takes a key-share lock on its owner's row,
 * which FOR UPDATE waits for, so transfers starved (up to seconds) behind line creations.
 */
export async function lockResellers(trx: Tx, dialect: Dialect, ids: number[]): Promise<void> {
  if (dialect !== 'postgres') return; // SQLite: BEGIN IMMEDIATE already serialises writers
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  await repo.lockRows(trx, sorted);
}

/** The guarded balance change and its ledger row (see repo.moveBalance): the new balance, or undefined. */
function move(trx: Tx, m: Movement, delta: number): Promise<number | undefined> {
  return repo.moveBalance(
    trx,
    {
      reseller_id: m.resellerId,
      delta,
      reason: m.reason,
      counterparty_id: m.counterpartyId ?? null,
      line_id: m.lineId ?? null,
      p2p_account_id: m.p2pAccountId ?? null,
      actor_id: m.actorId,
      idempotency_key: m.idempotencyKey ?? null,
      created_at: nowSec(),
    },
    MAX_BALANCE,
  );
}

/** A reseller's balance now (inside the caller's transaction when it passes one). */
export const currentBalance = (trx: Tx, resellerId: number) => repo.balanceOf(trx, resellerId);

/** Guarded debit: one statement that only succeeds when the balance covers it. Returns the new balance. */
export async function debit(trx: Tx, m: Movement): Promise<number> {
  if (!Number.isSafeInteger(m.amount) || m.amount <= 0) throw new Error(`debit amount must be a positive integer, got ${m.amount}`);
  const balance = await move(trx, m, -m.amount);
  if (balance === undefined) throw appError('INSUFFICIENT_CREDITS');
  await emitCreditsLow(trx, m.resellerId, balance + m.amount, balance);
  return balance;
}

export async function credit(trx: Tx, m: Movement): Promise<number> {
  if (!Number.isSafeInteger(m.amount) || m.amount <= 0) throw new Error(`credit amount must be a positive integer, got ${m.amount}`);
  const balance = await move(trx, m, m.amount);
  if (balance === undefined) throw appError('CREDIT_LIMIT');
  return balance;
}

/** What `chargeCaller` takes for `amount`: nothing from admins. */
export const chargeable = (actor: { type: string }, amount: number) => (actor.type === 'admin' || amount <= 0 ? 0 : amount);

/**
 * Charges the caller for an operation on one of its lines or P2P accounts, inside the caller's
 * transaction; admins are never charged. Returns the amount charged.
 */
export async function chargeCaller(
  trx: Tx,
  actor: { id: number; type: string },
  amount: number,
  reason: string,
  target: { lineId?: number; p2pAccountId?: number },
  key?: string,
): Promise<number> {
  if (chargeable(actor, amount) === 0) return 0;
  await debit(trx, { resellerId: actor.id, amount, reason, actorId: actor.id, ...target, idempotencyKey: key });
  return amount;
}

/** Moves credits between two resellers: debit and credit with their ledger rows, in the caller's transaction. */
export async function transfer(trx: Tx, dialect: Dialect, from: Movement, toId: number): Promise<{ from: number; to: number }> {
  await lockResellers(trx, dialect, [from.resellerId, toId]);
  const fromBalance = await debit(trx, { ...from, counterpartyId: toId });
  const toBalance = await credit(trx, { ...from, resellerId: toId, counterpartyId: from.resellerId });
  return { from: fromBalance, to: toBalance };
}
