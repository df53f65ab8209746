import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import * as repo from './repo.ts';

/**
 * The dashboard counts whole subtrees (a million lines for an admin), so each caller's answer is
 * kept in the database for DASHBOARD_CACHE_SECONDS, shared by every process of a deployment.
 *
 * After any change to a line, `invalidateFor` stamps `invalidated_at` on the rows of everyone who
 * sees it (the owner's ancestors and the admins). An answer counts only if it was computed after
 * the last stamp, and an answer whose computation started before a stamp is never stored; so a
 * reseller sees its own new line at once, and only time passing (expiries) waits for the TTL.
 * Stamping happens after the change commits, so no business transaction waits on these rows.
 */
const inFlight = new Map<number, Promise<unknown>>();

export async function cached<T extends object>(deps: Deps, resellerId: number, compute: () => Promise<T>): Promise<T & { computed_at: number }> {
  const ttlMs = deps.config.dashboardCacheSeconds * 1000;
  const db = deps.database.db;
  const now = Date.now(); // milliseconds here; the answer's computed_at is in seconds
  const seconds = (ms: number) => Math.floor(ms / 1000);
  if (ttlMs > 0) {
    const row = await repo.cachedAnswer(db, resellerId);
    if (row?.body && row.computed_at > now - ttlMs && row.computed_at > row.invalidated_at) {
      return { ...(JSON.parse(row.body) as T), computed_at: seconds(row.computed_at) };
    }
  }
  const running = inFlight.get(resellerId) as Promise<T> | undefined;
  if (running) return { ...(await running), computed_at: seconds(now) };
  const work = compute();
  inFlight.set(resellerId, work);
  try {
    const body = await work;
    if (ttlMs > 0) await repo.storeAnswer(db, resellerId, now, JSON.stringify(body));
    return { ...body, computed_at: seconds(now) };
  } finally {
    inFlight.delete(resellerId);
  }
}

/** Marks stale the cached dashboards that count lines of `memberId`. Call after the change committed. */
export async function invalidateFor(db: Tx, memberId: number): Promise<void> {
  await repo.stampInvalidated(db, memberId, Date.now());
}
