// The plan tests' database: the bench's shape, smaller (server/test/list-plan-matrix.test.ts and
// server/test/perf/list-plans.test.ts). PLAN_LINES sets the lines (default 20,000).
import { sql } from 'kysely';
import type { Database } from '../src/db/connection.ts';
import type { AuthUser } from '../src/domain/auth-user.ts';
import { nowSec } from '../src/lib/clock.ts';
import { ENGINE } from './helpers.ts';

export const PLAN_LINES = Number(process.env.PLAN_LINES ?? 20_000);
const LOGS = 20_000;
const P2P = 2_000;
/** Seconds; the lines' dates and the plan cases' `now`. */
export const now = nowSec();

export type PlanActors = Record<'admin' | 'master' | 'reseller', AuthUser>;

/** The bench's shape, smaller: 10 masters with 9 resellers each; the first master's subtree holds 10 % of the lines. */
export async function seedPlanDatabase(database: Database, opts: { lines: number; online: boolean }): Promise<PlanActors> {
  const db = database.db;
  const groups = Object.fromEntries((await db.selectFrom('groups').selectAll().execute()).map((g) => [g.type, g.group_id]));
  const admin = await db.selectFrom('resellers').select('id').where('member_group_id', '=', groups.admin).executeTakeFirstOrThrow();
  const masters: number[] = [];
  const all: number[] = [];
  const subtree: number[] = [];
  await db.transaction().execute(async (trx) => {
    for (let m = 0; m < 10; m++) {
      const add = async (username: string, group: number, owner: number, depth: number) => {
        const r = await trx
          .insertInto('resellers')
          .values({ username, password_hash: 'x', member_group_id: group, owner_id: owner, credits: 0, status: 1, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const tree = [{ ancestor_id: r.id, descendant_id: r.id, depth: 0 }, { ancestor_id: admin.id, descendant_id: r.id, depth }];
        if (depth === 2) tree.push({ ancestor_id: owner, descendant_id: r.id, depth: 1 });
        await trx.insertInto('reseller_tree').values(tree).execute();
        all.push(r.id);
        if (m === 0) subtree.push(r.id);
        return r.id;
      };
      const master = await add(`plan_master${m + 1}`, groups.master, admin.id, 1);
      masters.push(master);
      for (let r = 0; r < 9; r++) await add(`plan_res${m * 9 + r + 1}`, groups.reseller, master, 2);
    }
  });
  for (let start = 0; start < opts.lines; start += 500) {
    const rows = [];
    for (let i = start; i < start + 500; i++) {
      rows.push({
        member_id: i % 10 === 0 ? subtree[i % subtree.length] : all[(i * 7919) % all.length],
        username: `b${i.toString(36)}x${(i * 2654435761) % 997}`,
        password: 'secret',
        exp_date: now + (((i * 7) % 150) - 30) * 86_400 + (i % 86_400),
        created_at: now - ((i * 13) % 400) * 86_400 - (i % 86_400),
        enabled: i % 23 === 0 ? 0 : 1,
        is_trial: i % 20 === 0 ? 1 : 0,
        max_connections: 1,
        bouquet: '[]',
        // Half the lines: at this scale a common term must pass SEARCH_INDEX_MAX (5,000) matches to
        // walk, as the bench's 25 % does at 1M lines (the "users text_search" cases).
        reseller_notes: i % 2 === 0 ? `cliente ${i} indicado` : null,
        whatsapp: i % 3 === 0 ? `5511${i}` : null,
        system: 1,
        deleted_at: i % 97 === 0 ? now : null,
      });
    }
    await db.insertInto('lines').values(rows).execute();
  }
  const actions = [['user', 'user_create'], ['user', 'user_renew'], ['credits', 'add_credits'], ['auth', 'sign_in']] as const;
  for (let start = 0; start < LOGS; start += 1000) {
    const rows = [];
    for (let i = start; i < start + 1000; i++) {
      const [type_log, action] = actions[i % actions.length];
      const who = all[(i * 7919) % all.length];
      const target = type_log === 'credits' ? all[(i * 104729) % all.length] : null;
      rows.push({ type_log, action, actor_id: who, reseller_id: who, target_reseller_id: target, target_user: type_log === 'user' ? `b${i}` : null, value_int: 1, created_at: now * 1000 - Math.floor((i * 90 * 86_400_000) / LOGS) });
    }
    await db.insertInto('logs').values(rows).execute();
  }
  for (let start = 0; start < P2P; start += 500) {
    const rows = [];
    for (let i = start; i < start + 500; i++) {
      const owner = all[(i * 7919) % all.length];
      rows.push({ member_id: owner, name: `P ${i}`, username: `p2p${i}`, email: `p2p${i}@example.com`, password: 'secret', created_at: now - i * 600, expires_at: now + ((i % 60) - 10) * 86_400, status: 1, is_trial: 0, max_connections: 1, sync_state: 'synced' as const });
    }
    await db.insertInto('p2p_accounts').values(rows).execute();
  }
  if (opts.online) await seedOpenConnections(database);
  // PostgreSQL plans from statistics (the server's autovacuum keeps them); SQLite plans without any,
  // as a database grown through the API has none.
  if (ENGINE === 'postgres') await sql`VACUUM ANALYZE`.execute(db);
  const asActor = (id: number, username: string, type: AuthUser['type']): AuthUser => ({ id, username, type, credits: 0, sessionId: 0, twoFactorEnabled: false });
  const reseller = await db.selectFrom('resellers').select('id').where('username', '=', 'plan_res5').executeTakeFirstOrThrow();
  return { admin: asActor(admin.id, 'admin', 'admin'), master: asActor(masters[0], 'plan_master1', 'master'), reseller: asActor(reseller.id, 'plan_res5', 'reseller') };
}

/** Open connections (the online list): every tenth line, seen just now. */
async function seedOpenConnections(database: Database): Promise<void> {
  const db = database.db;
  const online = await db.selectFrom('lines').select('id').where(sql<number>`id % 10`, '=', 0).execute();
  for (let start = 0; start < online.length; start += 500) {
    const rows = online.slice(start, start + 500).map((l, i) => ({ line_id: l.id, stream_id: null, server_id: null, user_ip: `10.0.${i % 250}.${(start / 500) % 250}`, user_agent: 'Plan', date_start: now - i * 60, last_seen: now, ended_at: null, banned_until: null }));
    await db.insertInto('line_activity').values(rows).execute();
  }
}
