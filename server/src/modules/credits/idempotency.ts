import { createHash } from 'node:crypto';
import type { Database } from '../../db/connection.ts';
import { type Tx, withTx } from '../../db/tx.ts';
import { AppError, appError, validation } from '../../http/errors.ts';
import { markReplayed } from '../../http/schemas.ts';
import { nowSec } from '../../lib/clock.ts';
import { PerKeyLimit } from '../../lib/per-key-limit.ts';
import * as repo from './idempotency-repo.ts';

export interface IdempotencyRequest {
  actorId: number;
  key: string | undefined;
  /** what identifies the request: route and body */
  fingerprint: unknown;
}

export interface Outcome<T> {
  statusCode: number;
  body: T;
  replayed: boolean;
}


async function storedOutcome<T>(db: Tx, req: IdempotencyRequest, hash: string): Promise<Outcome<T> | undefined> {
  const row = await repo.findKey(db, req.actorId, req.key as string);
  if (!row) return undefined;
  if (row.request_hash !== hash) throw appError('IDEMPOTENCY_CONFLICT');
  markReplayed();
  return { statusCode: row.status_code, body: JSON.parse(row.response) as T, replayed: true };
}

/**
 * How many credit operations of one caller run at once in this process; the rest wait their turn.
 * Spends of one balance serialize on its row anyway, so more would only hold pool connections and
 * CPU: a reseller at 0 credits sending paid creations 16 at a time in a loop would otherwise take
 * most of the pool and leave other resellers a fraction of their rate (server/test/write-starvation).
 */
export const SPENDS_AT_ONCE_PER_CALLER = 2;
const perCaller = new PerKeyLimit<number>(SPENDS_AT_ONCE_PER_CALLER);

/**
 * Runs a credit-moving operation in one transaction together with its idempotency record.
 * A retry with the same key and body gets the first answer and changes nothing; a concurrent
 * duplicate loses the race on the unique key, rolls back, and replays the winner's answer.
 */
export function runIdempotent<T>(
  database: Database,
  req: IdempotencyRequest,
  statusCode: number,
  operation: (trx: Tx) => Promise<T>,
): Promise<Outcome<T>> {
  return perCaller.run(req.actorId, () => runOnce(database, req, statusCode, operation));
}

async function runOnce<T>(
  database: Database,
  req: IdempotencyRequest,
  statusCode: number,
  operation: (trx: Tx) => Promise<T>,
): Promise<Outcome<T>> {
  if (!req.key) {
    const body = await withTx(database, operation);
    return { statusCode, body, replayed: false };
  }
  if (req.key.length > 200) throw validation('Idempotency-Key', 'at most 200 characters', 'TOO_LONG', { max: 200 });
  const hash = createHash('sha256').update(JSON.stringify(req.fingerprint)).digest('hex');
  try {
    return await withTx(database, async (trx) => {
      const previous = await storedOutcome<T>(trx, req, hash);
      if (previous) return previous;
      const body = await operation(trx);
      await repo.insertKey(trx, {
        reseller_id: req.actorId,
        key: req.key as string,
        request_hash: hash,
        status_code: statusCode,
        response: JSON.stringify(body),
        created_at: nowSec(),
      });
      return { statusCode, body, replayed: false };
    });
  } catch (err) {
    // A concurrent duplicate may have committed first (we then hit its unique key, or found the
    // balance already spent by it): its answer is ours.
    if (err instanceof AppError && err.code === 'IDEMPOTENCY_CONFLICT') throw err;
    const winner = await storedOutcome<T>(database.db, req, hash);
    if (!winner) throw err;
    return winner;
  }
}
