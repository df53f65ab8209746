import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { nowMs } from '../../lib/clock.ts';
import * as repo from './repo.ts';

/**
 * A nested master's or reseller's line cards are counted by scanning its subtree (admins and
 * top-level masters read kept counts instead: line-counts-repo.ts), so each such caller's answer
 * is kept in the database for DASHBOARD_CACHE_SECONDS, shared by every process of a deployment.
 *
 * Any change to a line calls `invalidateFor` inside its own transaction (one commit per operation):
 * it drops the stored answers of everyone who sees the line (the owner's ancestors and the admins)
 * and moves their `invalidated_at` stamp. A computation reads the stamp before it reads anything
 * else and stores its answer only if the stamp has not moved since, so an answer that may have
 * missed a committed change is never stored; a reseller sees its own new line at once, and only
 * time passing (expiries) waits for the TTL. (A stamp taken before commit could not be compared by
 * clock: a computation starting between the stamp and the commit would miss the change.)
 *
 * The same `invalidated_at` stamp has a second job: list totals (`repos/scope-repo.ts`) keep an
 * exact count while the caller's stamp stays put, since any line change in its reach moves it.
 */
const inFlight = new Map<number, Promise<unknown>>();

export async function cached<T extends object>(deps: Deps, resellerId: number, compute: () => Promise<T>): Promise<T & { computed_at: number }> {
  const ttlMs = deps.config.dashboardCacheSeconds * 1000;
  const db = deps.database.db;
  const now = nowMs(); // milliseconds here; the answer's computed_at is in seconds
  const seconds = (ms: number) => Math.floor(ms / 1000);
  let basis = -1;
  if (ttlMs > 0) {
    const row = await repo.cachedAnswer(db, resellerId);
    if (row?.body && row.computed_at > now - ttlMs) {
      return { ...(JSON.parse(row.body) as T), computed_at: seconds(row.computed_at) };
    }
    basis = row ? Number(row.invalidated_at) : -1;
  }
  const running = inFlight.get(resellerId) as Promise<T> | undefined;
  if (running) return { ...(await running), computed_at: seconds(now) };
  const work = compute();
  inFlight.set(resellerId, work);
  try {
    const body = await work;
    if (ttlMs > 0) await repo.storeAnswer(db, resellerId, now, JSON.stringify(body), basis);
    return { ...body, computed_at: seconds(now) };
  } finally {
    inFlight.delete(resellerId);
  }
}

/**
 * Marks stale the cached dashboards that count lines of `memberId`, and so moves the stamp the lines
 * lists keep their totals by (repos/scope-repo.ts linesChangeStamp). Call inside the change's transaction.
 */
export async function invalidateFor(db: Tx, memberId: number): Promise<void> {
  await repo.stampInvalidated(db, memberId, nowMs());
}
