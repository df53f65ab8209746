import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';

/**
 * The dashboard counts whole subtrees (a million lines for an admin), so each caller's answer is
 * kept in the database for DASHBOARD_CACHE_SECONDS. Any change to a line drops the cached answers
 * of everyone who sees it (its owner's ancestors and the admins), so a reseller sees its own new
 * line at once; only the passage of time (expiries) waits for the TTL. In the database, so every
 * process of a scaled-out deployment shares it; concurrent misses in one process compute once.
 */
const inFlight = new Map<number, Promise<unknown>>();

export async function cached<T>(deps: Deps, resellerId: number, compute: () => Promise<T>): Promise<T & { computed_at: number }> {
  const ttl = deps.config.dashboardCacheSeconds;
  const db = deps.database.db;
  const now = Math.floor(Date.now() / 1000);
  if (ttl > 0) {
    const row = await db.selectFrom('dashboard_cache').selectAll().where('reseller_id', '=', resellerId).executeTakeFirst();
    if (row && row.computed_at > now - ttl) return { ...(JSON.parse(row.body) as T), computed_at: row.computed_at };
  }
  const running = inFlight.get(resellerId) as Promise<T> | undefined;
  if (running) return { ...(await running), computed_at: now };
  const work = compute();
  inFlight.set(resellerId, work);
  try {
    const body = await work;
    if (ttl > 0) {
      await db
        .insertInto('dashboard_cache')
        .values({ reseller_id: resellerId, computed_at: now, body: JSON.stringify(body) })
        .onConflict((oc) => oc.column('reseller_id').doUpdateSet({ computed_at: now, body: JSON.stringify(body) }))
        .execute();
    }
    return { ...body, computed_at: now };
  } finally {
    inFlight.delete(resellerId);
  }
}

/** Drops the cached dashboards that count lines of `memberId`. Call in the transaction of the change. */
export async function invalidateFor(db: Tx, memberId: number): Promise<void> {
  await db
    .deleteFrom('dashboard_cache')
    .where((eb) =>
      eb.or([
        eb('reseller_id', 'in', eb.selectFrom('reseller_tree').select('ancestor_id').where('descendant_id', '=', memberId)),
        eb(
          'reseller_id',
          'in',
          eb.selectFrom('resellers').innerJoin('groups', 'groups.group_id', 'resellers.member_group_id').select('resellers.id').where('groups.type', '=', 'admin'),
        ),
      ]),
    )
    .execute();
}
