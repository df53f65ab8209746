import { sql } from 'kysely';
import { subtreeIds, visibleLines } from '../../repos/scope-repo.ts';
import type { Tx } from '../../db/tx.ts';
import type { AuthUser } from '../../domain/auth-user.ts';

/** The line figures of the dashboard cards, in one scan of the caller's lines (see line-counts-repo.ts for the kept ones). */
export function lineCounts(db: Tx, actor: AuthUser, now: number, newSince: number) {
  const active = sql`ln.enabled = 1 and ln.exp_date > ${now}`;
  const kind = (trial: number, http: boolean) => sql<number>`sum(case when ${active} and ln.is_trial = ${trial} and ln.system ${sql.raw(http ? '=' : '<>')} 1 then 1 else 0 end)`;
  return visibleLines(db, actor)
    .select([
      sql<number>`count(*)`.as('users'),
      kind(0, true).as('normal_http'),
      kind(0, false).as('normal_p2p'),
      kind(1, true).as('trial_http'),
      kind(1, false).as('trial_p2p'),
      sql<number>`sum(case when ln.created_at >= ${newSince} then 1 else 0 end)`.as('users_new'),
    ])
    .executeTakeFirst();
}

export function resellerCount(db: Tx, actor: AuthUser) {
  let q = db.selectFrom('resellers as r').select(sql<number>`count(*)`.as('n')).where('r.deleted_at', 'is', null).where('r.id', '!=', actor.id);
  if (actor.type !== 'admin') q = q.where('r.id', 'in', subtreeIds(db, actor.id, false));
  return q.executeTakeFirst();
}

/**
 * Open connections (not ended, seen since `since`) of the caller's lines. Asked on every dashboard
 * view, uncached: it starts from the few open connections (`line_activity_last_seen`), never from
 * a master's 100,000 lines (SQLite would walk the owners' index: 12 ms at 1M lines); the scope is
 * tested on each connection's line.
 */
export function onlineCounts(db: Tx, actor: AuthUser, since: number) {
  return visibleLines(db, actor, true)
    .innerJoin('line_activity as a', 'a.line_id', 'ln.id')
    .where('a.ended_at', 'is', null)
    .where('a.last_seen', '>', since)
    .select([
      sql<number>`count(*)`.as('connections'),
      sql<number>`count(distinct ln.id)`.as('users_online'),
      sql<number>`count(distinct case when ln.member_id <> ${actor.id} then ln.id end)`.as('users_online_of_resellers'),
    ])
    .executeTakeFirst();
}

export const cachedAnswer = (db: Tx, resellerId: number) => db.selectFrom('dashboard_cache').selectAll().where('reseller_id', '=', resellerId).executeTakeFirst();

/**
 * Stores an answer unless the row was stamped since the computation read `basis` (the row's
 * `invalidated_at` then, -1 when there was no row). Stamps happen inside the changing
 * transactions and always move `invalidated_at`, so an answer is stored only if no change
 * committed after its computation started reading.
 */
export async function storeAnswer(db: Tx, resellerId: number, computedAt: number, body: string, basis: number): Promise<void> {
  if (basis < 0) {
    await db
      .insertInto('dashboard_cache')
      .values({ reseller_id: resellerId, computed_at: computedAt, body })
      .onConflict((oc) => oc.column('reseller_id').doNothing())
      .execute();
    return;
  }
  await db.updateTable('dashboard_cache').set({ computed_at: computedAt, body }).where('reseller_id', '=', resellerId).where('invalidated_at', '=', basis).execute();
}

/**
 * Drops the cached answers that count lines of `memberId` (its ancestors' and the admins') and
 * moves their stamp forward (at least by one, so a computation that read the old stamp cannot
 * store). Runs inside the changing transaction, as its last statement: these rows (the admins'
 * are shared by every spend) are then locked only until COMMIT, and in id order, so two
 * transactions stamping overlapping sets cannot deadlock. The admins are found through
 * resellers_group by an IN: written as a join, SQLite merged the UNION in id order by scanning
 * every reseller (440 µs of every line change at 10,000 resellers; 26 µs now).
 *
 * The stamp has a second reader: the lines lists keep their totals while the caller's stamp stays
 * put (repos/scope-repo.ts linesChangeStamp). Every line change must keep stamping here.
 */
export async function stampInvalidated(db: Tx, memberId: number, at: number): Promise<void> {
  const stamp = sql`
    INSERT INTO dashboard_cache (reseller_id, computed_at, invalidated_at, body)
    SELECT id, 0, ${at}, NULL FROM (
      SELECT ancestor_id AS id FROM reseller_tree WHERE descendant_id = ${memberId}
      UNION
      SELECT r.id FROM resellers r WHERE r.member_group_id IN (SELECT g.group_id FROM groups g WHERE g.type = 'admin')
    ) AS affected WHERE true ORDER BY id
    ON CONFLICT (reseller_id) DO UPDATE SET body = NULL,
      invalidated_at = CASE WHEN dashboard_cache.invalidated_at >= ${at} THEN dashboard_cache.invalidated_at + 1 ELSE ${at} END`;
  await stamp.execute(db);
}
