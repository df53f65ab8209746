import { sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';

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
    const row = await db.selectFrom('dashboard_cache').selectAll().where('reseller_id', '=', resellerId).executeTakeFirst();
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
    if (ttlMs > 0) {
      const text = JSON.stringify(body);
      await db
        .insertInto('dashboard_cache')
        .values({ reseller_id: resellerId, computed_at: now, body: text })
        .onConflict((oc) =>
          oc
            .column('reseller_id')
            .doUpdateSet({ computed_at: now, body: text })
            .where('dashboard_cache.invalidated_at', '<', now),
        )
        .execute();
    }
    return { ...body, computed_at: seconds(now) };
  } finally {
    inFlight.delete(resellerId);
  }
}

/** Marks stale the cached dashboards that count lines of `memberId`. Call after the change committed. */
export async function invalidateFor(db: Tx, memberId: number): Promise<void> {
  const now = Date.now();
  await sql`
    INSERT INTO dashboard_cache (reseller_id, computed_at, invalidated_at, body)
    SELECT id, 0, ${now}, NULL FROM (
      SELECT ancestor_id AS id FROM reseller_tree WHERE descendant_id = ${memberId}
      UNION
      SELECT r.id FROM resellers r JOIN groups g ON g.group_id = r.member_group_id WHERE g.type = 'admin'
    ) AS affected WHERE true
    ON CONFLICT (reseller_id) DO UPDATE SET invalidated_at = ${now}`.execute(db);
}
