import { sql } from 'kysely';
import type { Database } from '../src/db/connection.ts';
import { nowSec } from '../src/lib/clock.ts';
import { keptLineFigures } from '../src/modules/dashboard/line-counts-repo.ts';

/**
 * The scopes whose kept dashboard counts (migration 032) differ from a scan of their lines right
 * now: every line (0) and each top-level reseller's (top_reseller_id). Empty when all agree.
 */
export async function keptCountsMismatches(db: Database['db']): Promise<string[]> {
  const now = nowSec();
  const since = now - 7 * 86_400;
  const tops = await db.selectFrom('lines').select('top_reseller_id').distinct().where('top_reseller_id', 'is not', null).execute();
  const problems: string[] = [];
  for (const scope of [0, ...tops.map((t) => Number(t.top_reseller_id))]) {
    const inScope = scope === 0 ? sql`true` : sql`top_reseller_id = ${scope}`;
    const active = (trial: number, http: boolean) =>
      sql<number>`sum(case when enabled = 1 and exp_date > ${now} and is_trial = ${trial} and system ${sql.raw(http ? '=' : '<>')} 1 then 1 else 0 end)`;
    const { rows } = await sql<Record<string, number | string | null>>`
      SELECT count(*) AS total, sum(case when created_at >= ${since} then 1 else 0 end) AS created,
        ${active(0, true)} AS a1, ${active(0, false)} AS a2, ${active(1, true)} AS a3, ${active(1, false)} AS a4
      FROM lines WHERE deleted_at IS NULL AND ${inScope}`.execute(db);
    const r = rows[0] ?? {};
    const scanned = { total: Number(r.total ?? 0), created: Number(r.created ?? 0), active: [r.a1, r.a2, r.a3, r.a4].map((v) => Number(v ?? 0)) };
    const kept = await keptLineFigures(db, scope, now, since);
    if (JSON.stringify(kept) !== JSON.stringify(scanned)) problems.push(`scope ${scope}: kept ${JSON.stringify(kept)}, scanned ${JSON.stringify(scanned)}`);
  }
  return problems;
}
