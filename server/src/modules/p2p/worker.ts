import { randomBytes } from 'node:crypto';
import { type Tx, withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { nowMs } from '../../lib/clock.ts';
import { onKick } from './outbox.ts';
import * as repo from './outbox-repo.ts';
import * as client from './p2p-client.ts';
import { retryDelayMs } from './rules.ts';

// The delivery worker, one per server process (started by main.ts when P2P_API_URL is set).
//
// Each round takes up to BATCH deliveries that are due and first in line for their subject (an
// account or a line), sends them side by side (different subjects), and records each outcome:
// delivered, or failed with the error and the next attempt after an exponential backoff (capped).
// A subject's next delivery waits until the previous one is delivered: in order, one at a time.
//
// - PostgreSQL, several processes: a round runs in one transaction that holds its rows FOR UPDATE
//   SKIP LOCKED while sending, so other processes skip them (and their followers, which are not
//   first in line). A process that dies (kill -9) loses its connection, PostgreSQL rolls the round
//   back and releases the rows: another process, or this one restarted, sends them again.
// - SQLite: one server process (the engine has one writer); a round reads its rows, sends, then
//   records the outcomes in one short write transaction (never a write lock held across HTTP).
//   A crash between sending and recording sends those rows again after the restart.
// Redelivery is harmless: PUT replaces, DELETE of a missing login is done, and every delivery
// carries `Idempotency-Key: outbox-<id>` for the other side.

const BATCH = 20;
const PRUNE_EVERY_MS = 3_600_000;
const KEEP_DELIVERED_MS = 7 * 86_400_000;

export interface OutboxWorker {
  /** Stops after aborting the deliveries in flight (they stay queued). */
  stop(): Promise<void>;
  /** deliveries made by this worker since it started */
  readonly delivered: number;
}

export function startOutboxWorker(deps: Deps, opts: { pollMs?: number; batch?: number; log?: (msg: string, err?: unknown) => void } = {}): OutboxWorker {
  const pollMs = opts.pollMs ?? 1000;
  const batch = opts.batch ?? BATCH;
  const log = opts.log ?? ((msg, err) => console.error(`p2p outbox: ${msg}`, err ?? ''));
  const id = randomBytes(4).toString('hex');
  const abort = new AbortController();
  let stopping = false;
  let wake: () => void = () => {};
  /** a change committed while a round ran: look again at once instead of sleeping */
  let kicked = false;
  let delivered = 0;
  let lastPrune = 0;

  const sleep = () =>
    new Promise<void>((resolve) => {
      if (kicked) return resolve();
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        wake = () => {};
        resolve();
      }
      wake = done;
    });
  const unsubscribe = onKick(() => {
    kicked = true;
    wake();
  });

  async function send(d: repo.Delivery): Promise<string | null> {
    try {
      if (d.method === 'PUT') await client.putAccount(deps.config, d.login, JSON.parse(d.body ?? '{}'), `outbox-${d.id}`, abort.signal);
      else await client.deleteAccount(deps.config, d.login, `outbox-${d.id}`, abort.signal);
      return null;
    } catch (err) {
      return (err as Error).message || String(err);
    }
  }

  async function record(trx: Tx, rows: repo.Delivery[], errors: (string | null)[]) {
    const now = nowMs();
    for (const [i, d] of rows.entries()) {
      const error = errors[i];
      if (error === undefined || (error !== null && stopping)) continue; // cut short by stop(): stays queued as it was
      if (error === null) {
        await repo.markDelivered(trx, d, now);
        delivered++;
      } else {
        await repo.markFailed(trx, d, now + retryDelayMs(d.attempts + 1, deps.config.p2pRetryBaseMs, deps.config.p2pRetryMaxMs), error);
      }
    }
  }

  /**
   * One round; the number of deliveries attempted. On PostgreSQL the rows stay locked (FOR UPDATE
   * SKIP LOCKED) in the round's transaction while they are sent; SQLite never holds its write
   * lock across HTTP, so it reads first and writes the outcomes in a short transaction after.
   */
  async function round(): Promise<number> {
    const { database } = deps;
    if (database.dialect === 'postgres') {
      return withTx(database, async (trx) => {
        const rows = await repo.claimDue(trx, nowMs(), batch, true);
        await record(trx, rows, await Promise.all(rows.map(send)));
        return rows.length;
      });
    }
    const rows = await repo.claimDue(database.db, nowMs(), batch, false);
    if (rows.length === 0) return 0;
    const errors = await Promise.all(rows.map(send));
    await withTx(database, (trx) => record(trx, rows, errors));
    return rows.length;
  }

  async function prune() {
    if (nowMs() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = nowMs();
    await repo.pruneDelivered(deps.database.db, nowMs() - KEEP_DELIVERED_MS);
  }

  const loop = (async () => {
    while (!stopping) {
      let n = 0;
      kicked = false;
      try {
        n = await round();
        if (n === 0) await prune();
      } catch (err) {
        if (!stopping) log(`worker ${id}: round failed`, err);
      }
      if (n === 0 && !stopping) await sleep();
    }
  })();

  return {
    get delivered() {
      return delivered;
    },
    async stop() {
      stopping = true;
      unsubscribe();
      abort.abort();
      wake();
      await loop;
    },
  };
}
