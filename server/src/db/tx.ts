import { AsyncLocalStorage } from 'node:async_hooks';
import { type Kysely, type Transaction, sql } from 'kysely';
import { busy, isBusy } from '../domain/errors.ts';
import type { Database } from './connection.ts';
import type { DB } from './types.ts';

/** What a repo function takes: the database handle, or the transaction it runs in. */
export type Tx = Kysely<DB> | Transaction<DB>;

/**
 * How long a statement of a transaction waits for a row lock (PostgreSQL) before the transaction
 * fails with BUSY (503, Retry-After): a row held by a long transaction makes its spends fail fast
 * and change nothing instead of queueing. SQLite's equivalent is its busy timeout (connection.ts).
 */
export const LOCK_TIMEOUT_MS = 1_000;

/** The open transaction of this async context: what runs once it commits (afterCommit). */
const inTransaction = new AsyncLocalStorage<{ committed: (() => void)[] }>();

/**
 * Runs `fn` once the current transaction commits (now, outside one); never when it rolls back.
 * For what must count only what happened, such as the metrics' counters.
 */
export function afterCommit(fn: () => void): void {
  const open = inTransaction.getStore();
  if (open) open.committed.push(fn);
  else fn();
}

/**
 * One write transaction. The callback gets the transaction and must do nothing but database work
 * in it. A withTx inside another throws at once: pass the outer transaction instead (on SQLite's
 * one connection it would otherwise wait for itself forever). A lock not granted within
 * LOCK_TIMEOUT_MS (SQLite: the write lock within its busy timeout) fails it with BUSY; a deadlock
 * or serialization failure, which rolled everything back, runs it again (at most three times).
 * SQLite begins with BEGIN IMMEDIATE (connection.ts): the write lock is taken up front.
 */
export async function withTx<T>(database: Database, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  if (inTransaction.getStore()) throw new Error('withTx inside a transaction: pass the outer transaction instead');
  const open = { committed: [] as (() => void)[] };
  return inTransaction.run(open, async () => {
    for (let attempt = 1; ; attempt++) {
      open.committed.length = 0; // an attempt rolled back: what it queued never happened
      try {
        const result = await database.db.transaction().execute(async (trx) => {
          if (database.dialect === 'postgres') await sql`SET LOCAL lock_timeout = ${sql.lit(`${LOCK_TIMEOUT_MS}ms`)}`.execute(trx);
          return fn(trx);
        });
        for (const done of open.committed) done();
        return result;
      } catch (err) {
        if (isBusy(err)) throw busy();
        const code = (err as { code?: string }).code;
        if (attempt >= 3 || (code !== '40P01' && code !== '40001')) throw err;
      }
    }
  });
}
