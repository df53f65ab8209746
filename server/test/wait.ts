// Waiting on what a worker or another process records, instead of sleeping a fixed time: the
// check is asked again every `everyMs` until it holds or `timeoutMs` of real time has passed.
// The deadline is real time (Date.now), not the product's clock, which a test may move.

import type { Kysely } from 'kysely';
import type { DB } from '../src/db/types.ts';

export interface WaitOptions {
  /** how long to wait in all before failing */
  timeoutMs?: number;
  /** what is awaited, for the error when it never comes */
  what?: string;
  /** the pause between two checks */
  everyMs?: number;
}

/** Resolves with the check's first truthy answer; throws once the deadline passes without one. */
export async function waitFor<T>(check: () => T | Promise<T>, opts: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 10_000, what = 'the condition', everyMs = 20 } = opts;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await check();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Waits for `n` more whole rounds of the scheduler holding the named lease (`reminders`,
 * `payments`, ...). Each round starts by renewing the lease, and its `until` (seconds) moves on at
 * every tick of a 1 s scheduler. The first move shows that the round running at the call has ended;
 * each further one, that a round has run whole since: what a test waits for before asserting that
 * nothing more happened.
 */
export async function schedulerRounds(db: Kysely<DB>, lease: string, n: number, opts: WaitOptions = {}): Promise<void> {
  const leaseUntil = async () => Number((await db.selectFrom('scheduler_leases').select('until').where('name', '=', lease).executeTakeFirst())?.until ?? 0);
  let last = await leaseUntil();
  for (let moves = 0; moves <= n; moves++) {
    const seen = last;
    await waitFor(async () => (await leaseUntil()) > seen, { what: `a new round of the ${lease} scheduler`, everyMs: 100, ...opts });
    last = await leaseUntil();
  }
}
