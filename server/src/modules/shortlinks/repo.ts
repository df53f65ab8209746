import { sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';

export async function insertShortLink(db: Tx, values: { code: string; line_id: number; type: string; created_by: number; created_at: number }): Promise<void> {
  await db.insertInto('short_links').values({ ...values, hits: 0 }).execute();
}

/** The link and its line's current data; a deleted line has no link. */
export async function findLinkWithLine(db: Tx, code: string) {
  return db
    .selectFrom('short_links as s')
    .innerJoin('lines as l', 'l.id', 's.line_id')
    .select(['s.id', 's.type', 'l.member_id', 'l.username', 'l.password', 'l.enabled', 'l.exp_date'])
    .where('s.code', '=', code)
    .where('l.deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function countHit(db: Tx, id: number): Promise<void> {
  await db.updateTable('short_links').set((eb) => ({ hits: eb('hits', '+', 1) })).where('id', '=', id).execute();
}

/**
 * Counts one look-up for `ip` before it runs (atomic upsert, so concurrent guesses cannot pass
 * the limit together); an expired window starts over. Returns the count and window start.
 */
export async function reserveLookup(db: Tx, ip: string, now: number, windowSeconds: number): Promise<{ misses: number; window_start: number }> {
  const row = await db
    .insertInto('short_link_misses')
    .values({ ip, misses: 1, window_start: now })
    .onConflict((oc) =>
      oc.column('ip').doUpdateSet({
        misses: sql`case when short_link_misses.window_start <= ${now - windowSeconds} then 1 else short_link_misses.misses + 1 end`,
        window_start: sql`case when short_link_misses.window_start <= ${now - windowSeconds} then ${now} else short_link_misses.window_start end`,
      }),
    )
    .returning(['misses', 'window_start'])
    .executeTakeFirstOrThrow();
  return { misses: Number(row.misses), window_start: Number(row.window_start) };
}

/** A look-up that found its link gives its reservation back (the row goes when nothing is left). */
export async function releaseLookup(db: Tx, ip: string): Promise<void> {
  const gone = await db.deleteFrom('short_link_misses').where('ip', '=', ip).where('misses', '<=', 1).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) {
    await db.updateTable('short_link_misses').set((eb) => ({ misses: eb('misses', '-', 1) })).where('ip', '=', ip).execute();
  }
}

export async function purgeExpiredMisses(db: Tx, before: number): Promise<void> {
  await db.deleteFrom('short_link_misses').where('window_start', '<=', before).execute();
}
