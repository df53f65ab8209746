import type { Dialect } from '../../db/connection.ts';
import { afterCommit, type Tx } from '../../db/tx.ts';
import { appError } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { countCreditSpend } from '../../lib/counters.ts';
import { tellCreditsLow } from '../telegram/service.ts';
import { emitCreditsLow } from '../webhooks/service.ts';
import * as repo from './balance-repo.ts';

// The ledger: every credit movement is one guarded balance statement and its ledger row, inside
// the caller's transaction, through one of the operations below. Nothing else writes a balance.
//   spend    a reseller pays for an operation on one of its lines or P2P accounts (admins never pay)
//   refund   an earlier spend given back (a compensating row, never an edit of the first)
//   transfer credits move from one reseller to another (a master's gift, a removed reseller's rest)
//   mint     credits enter the system (an admin's gift, an import from the old P2P panel)
//   burn     credits leave the system (an admin takes them back)
// Rows of two resellers are locked in id order (lockResellers) so two transfers never deadlock.

/** What a ledger row says besides the amount: who did it, why, and what it was for. */
export interface Entry {
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

function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`a ledger amount must be a positive integer, got ${amount}`);
}

/** The guarded balance change and its ledger row (see repo.moveBalance): the new balance, or undefined. */
function move(trx: Tx, resellerId: number, delta: number, e: Entry): Promise<number | undefined> {
  return repo.moveBalance(
    trx,
    {
      reseller_id: resellerId,
      delta,
      reason: e.reason,
      counterparty_id: e.counterpartyId ?? null,
      line_id: e.lineId ?? null,
      p2p_account_id: e.p2pAccountId ?? null,
      actor_id: e.actorId,
      idempotency_key: e.idempotencyKey ?? null,
      created_at: nowSec(),
    },
    MAX_BALANCE,
  );
}

/** Guarded debit: one statement that only succeeds when the balance covers it. Returns the new balance. */
async function debit(trx: Tx, resellerId: number, amount: number, e: Entry): Promise<number> {
  assertAmount(amount);
  const balance = await move(trx, resellerId, -amount, e);
  if (balance === undefined) throw appError('INSUFFICIENT_CREDITS');
  await emitCreditsLow(trx, resellerId, balance + amount, balance);
  await tellCreditsLow(trx, resellerId, balance + amount, balance);
  return balance;
}

async function credit(trx: Tx, resellerId: number, amount: number, e: Entry): Promise<number> {
  assertAmount(amount);
  const balance = await move(trx, resellerId, amount, e);
  if (balance === undefined) throw appError('CREDIT_LIMIT');
  return balance;
}

/** A reseller's balance now (inside the caller's transaction when it passes one). */
export const currentBalance = (trx: Tx, resellerId: number) => repo.balanceOf(trx, resellerId);

/** What `spend` takes for `amount`: nothing from admins. */
export const chargeable = (actor: { type: string }, amount: number) => (actor.type === 'admin' || amount <= 0 ? 0 : amount);

/**
 * Charges the caller for an operation on one of its lines or P2P accounts, inside the caller's
 * transaction; admins are never charged. Returns the amount charged.
 */
export async function spend(
  trx: Tx,
  actor: { id: number; type: string },
  amount: number,
  reason: string,
  target: { lineId?: number; p2pAccountId?: number },
  key?: string,
): Promise<number> {
  if (chargeable(actor, amount) === 0) return 0;
  await debit(trx, actor.id, amount, { reason, actorId: actor.id, ...target, idempotencyKey: key });
  afterCommit(countCreditSpend);
  return amount;
}

/** Gives back an earlier spend of `resellerId` with a compensating ledger row. Returns the new balance. */
export const refund = (trx: Tx, resellerId: number, amount: number, e: Entry) => credit(trx, resellerId, amount, e);

/** Credits that enter the system: an admin's gift, an import. Returns the new balance. */
export const mint = (trx: Tx, resellerId: number, amount: number, e: Entry) => credit(trx, resellerId, amount, e);

/** Credits that leave the system (an admin takes them back). Returns the new balance. */
export const burn = (trx: Tx, resellerId: number, amount: number, e: Entry) => debit(trx, resellerId, amount, e);

/**
 * Moves `amount` from one reseller to another: both rows locked in id order, the debit and the
 * credit with their ledger rows (`<kind>_out`, `<kind>_in`), each naming the other as counterparty.
 * Returns both new balances.
 */
export async function transfer(
  trx: Tx,
  dialect: Dialect,
  move: { fromId: number; toId: number; amount: number; kind: 'transfer' | 'deactivate' | 'purchase'; actorId: number; idempotencyKey?: string },
): Promise<{ from: number; to: number }> {
  const { fromId, toId, amount, kind, actorId, idempotencyKey } = move;
  await lockResellers(trx, dialect, [fromId, toId]);
  const from = await debit(trx, fromId, amount, { reason: `${kind}_out`, actorId, counterpartyId: toId, idempotencyKey });
  const to = await credit(trx, toId, amount, { reason: `${kind}_in`, actorId, counterpartyId: fromId, idempotencyKey });
  return { from, to };
}
