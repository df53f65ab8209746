import { sql } from 'kysely';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../auth/service.ts';
import { countFromCounters, visibleLines } from '../lines/repo.ts';
import { subtreeIds } from '../resellers/scope.ts';

const n = (v: unknown) => Number(v ?? 0);

/** The dashboard cards, every figure scoped to the caller's subtree (everything for admins). */
export async function counters({ database }: Deps, actor: AuthUser) {
  const db = database.db;
  const now = Math.floor(Date.now() / 1000);
  const weekAgo = now - 7 * 86_400;
  const active = sql`ln.enabled = 1 and ln.exp_date > ${now}`;
  const lineCounts = visibleLines(db, actor)
    .select([
      sql<number>`sum(case when ${active} and ln.is_trial = 0 then 1 else 0 end)`.as('users_active'),
      sql<number>`sum(case when ${active} and ln.is_trial = 0 and ln.system <> 1 then 1 else 0 end)`.as('users_activep2p'),
      sql<number>`sum(case when ${active} and ln.is_trial = 0 and ln.system = 1 then 1 else 0 end)`.as('users_activehttp'),
      sql<number>`sum(case when ln.created_at >= ${weekAgo} then 1 else 0 end)`.as('users_new'),
      sql<number>`sum(case when ${active} and ln.is_trial = 1 and ln.system = 1 then 1 else 0 end)`.as('users_trial'),
      sql<number>`sum(case when ${active} and ln.is_trial = 1 and ln.system <> 1 then 1 else 0 end)`.as('users_trialp2p'),
    ])
    .executeTakeFirst();

  let resellers = db.selectFrom('resellers as r').select(sql<number>`count(*)`.as('n')).where('r.deleted_at', 'is', null).where('r.id', '!=', actor.id);
  if (actor.type !== 'admin') resellers = resellers.where('r.id', 'in', subtreeIds(db, actor.id, false));

  const online = visibleLines(db, actor)
    .innerJoin('line_activity as a', 'a.line_id', 'ln.id')
    .select([
      sql<number>`count(*)`.as('connections'),
      sql<number>`count(distinct ln.id)`.as('users_online'),
      sql<number>`count(distinct case when ln.member_id <> ${actor.id} then ln.id end)`.as('users_online_of_resellers'),
    ])
    .executeTakeFirst();

  const [lines, res, on, users] = await Promise.all([lineCounts, resellers.executeTakeFirst(), online, countFromCounters(db, actor)]);
  return {
    resellers: n(res?.n),
    users,
    users_active: n(lines?.users_active),
    users_activep2p: n(lines?.users_activep2p),
    users_activehttp: n(lines?.users_activehttp),
    users_online_of_resellers: n(on?.users_online_of_resellers),
    users_online: n(on?.users_online),
    conections_online: n(on?.connections),
    users_new: n(lines?.users_new),
    users_trial: n(lines?.users_trial),
    users_trialp2p: n(lines?.users_trialp2p),
  };
}

/**
 * New lines and credits spent per day over the last `days` days, in the caller's time zone
 * (offset in minutes east of UTC, as the browser reports it negated).
 */
export async function activity({ database }: Deps, actor: AuthUser, tzOffsetMinutes: number, days = 30) {
  const db = database.db;
  const offset = tzOffsetMinutes * 60;
  const now = Math.floor(Date.now() / 1000);
  const today = Math.floor((now + offset) / 86_400);
  const since = (today - days + 1) * 86_400 - offset;
  const day = (col: string) => sql<number>`((${sql.ref(col)} + ${offset}) / 86400)`;
  const dayInt = (col: string) => (database.dialect === 'postgres' ? sql<number>`floor(${day(col)})::int` : sql<number>`cast(${day(col)} as integer)`);

  const lines = await visibleLines(db, actor)
    .select([dayInt('ln.created_at').as('day'), sql<number>`count(*)`.as('n')])
    .where('ln.created_at', '>=', since)
    .groupBy(sql`1`)
    .execute();

  let spent = db
    .selectFrom('credit_ledger as cl')
    .select([dayInt('cl.created_at').as('day'), sql<number>`sum(-cl.delta)`.as('n')])
    .where('cl.created_at', '>=', since)
    .where('cl.delta', '<', 0)
    .where('cl.reason', 'like', 'line_%');
  spent = actor.type === 'admin' ? spent : spent.where('cl.reseller_id', 'in', subtreeIds(db, actor.id, true));
  const credits = await spent.groupBy(sql`1`).execute();

  const byDay = (rows: { day: number; n: number }[]) => new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
  const l = byDay(lines);
  const c = byDay(credits);
  return {
    data: Array.from({ length: days }, (_, i) => {
      const d = today - days + 1 + i;
      return { date: new Date(d * 86_400_000).toISOString().slice(0, 10), new_lines: l.get(d) ?? 0, credits_spent: c.get(d) ?? 0 };
    }),
  };
}
