// Plan tests: every benchmarked list case (server/src/scripts/plan-cases.ts) runs through the product's own
// service on a seeded database; each statement it sends is explained and the case fails when a plan
// scans the lines or logs table, or stops naming the index the case is built on. Timings are too
// noisy for CI; plans are not.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';

// SQLite: the lists walk the sort's index past LIST_COUNT_CAP matches (db/paginate.ts); scaled to
// this seed (2.5 % of its lines, as the plan matrix test does), the cases plan as at a million
// lines. PostgreSQL's planner chooses by itself (at this cap it would read this small table in order).
vi.hoisted(() => {
  if (process.env.TEST_DB !== 'postgres') process.env.LIST_COUNT_CAP = String(Math.round(Number(process.env.PLAN_LINES ?? 20_000) / 40));
});
import { captureQueries, caseScans, explain, tableScans } from '../../src/db/plans.ts';
import type { AuthUser } from '../../src/domain/auth-user.ts';
import { invalidateFor } from '../../src/modules/dashboard/cache.ts';
import * as lines from '../../src/modules/lines/service.ts';
import { findVisible } from '../../src/modules/resellers/repo.ts';
import { PLAN_CASES } from '../../src/scripts/plan-cases.ts';
import { ENGINE, type TestContext, createTestContext } from '../helpers.ts';

const LINES = Number(process.env.PLAN_LINES ?? 20_000);
const LOGS = 20_000;
const P2P = 2_000;
let t: TestContext;
let actors: Record<'admin' | 'master' | 'reseller', AuthUser>;
const now = Math.floor(Date.now() / 1000);

/** The bench's shape, smaller: 10 masters with 9 resellers each; the first master's subtree holds 10 % of the lines. */
async function seed() {
  const db = t.database.db;
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
  for (let start = 0; start < LINES; start += 500) {
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
  // PostgreSQL plans from statistics (the server's autovacuum keeps them); SQLite plans without any,
  // as a database grown through the API has none.
  if (ENGINE === 'postgres') await sql`VACUUM ANALYZE`.execute(db);
  const asActor = (id: number, username: string, type: AuthUser['type']): AuthUser => ({ id, username, type, credits: 0, sessionId: 0, twoFactorEnabled: false });
  const reseller = await db.selectFrom('resellers').select('id').where('username', '=', 'plan_res5').executeTakeFirstOrThrow();
  actors = { admin: asActor(admin.id, 'admin', 'admin'), master: asActor(masters[0], 'plan_master1', 'master'), reseller: asActor(reseller.id, 'plan_res5', 'reseller') };
}

describe(`list plans (${ENGINE})`, () => {
  beforeAll(async () => {
    t = await createTestContext();
    await seed();
  }, 120_000);
  afterAll(() => t?.close());

  for (const c of PLAN_CASES) {
    const title = `${c.as} / ${c.name}`;
    if (c.known) {
      test.todo(`${title} (known: ${c.known})`);
      continue;
    }
    test(title, async () => {
      const deps = t.deps;
      const queries = await captureQueries(t.database, (db) => c.run({ ...deps, database: { ...t.database, db } }, actors[c.as], { reseller: 'plan_res5', now }));
      expect(queries.length).toBeGreaterThan(0);
      const plans = await Promise.all(queries.map((q) => explain(t.database, q)));
      const shown = queries.map((q, i) => `${q.sql}\n${plans[i].join('\n')}`).join('\n\n');
      if (process.env.PLAN_PRINT) console.log(`## ${title}\n${shown}`);
      expect(plans.flatMap((p, i) => caseScans(c, queries[i].sql, p)), shown).toEqual([]);
      for (const name of c.uses[ENGINE]) expect(plans.flat().some((l) => l.includes(name)), `${name} missing in:\n${shown}`).toBe(true);
    });
  }
});

// Every spend runs these in its transaction: one row each, so no plan may read the whole resellers
// table or build the caller's subtree. SQLite only: PostgreSQL rightly scans 100 resellers here.
describe.runIf(ENGINE === 'sqlite')('per-spend statements (sqlite)', () => {
  beforeAll(async () => {
    t = await createTestContext();
    await seed();
  }, 120_000);
  afterAll(() => t?.close());

  const spendStatements: [string, (db: TestContext['database']['db']) => Promise<unknown>][] = [
    ['the dashboard-cache stamp (admins through resellers_group)', (db) => invalidateFor(db, actors.master.id + 5)],
    ["a master's visibility check of one reseller", (db) => findVisible(db, actors.master, actors.master.id + 5)],
    ["a master's visibility check of one line", (db) => lines.findVisibleLine(db, actors.master, 4243)],
  ];
  for (const [title, run] of spendStatements) {
    test(title, async () => {
      const queries = await captureQueries(t.database, run);
      const plans = await Promise.all(queries.map((q) => explain(t.database, q)));
      const shown = queries.map((q, i) => `${q.sql}\n${plans[i].join('\n')}`).join('\n\n');
      expect(plans.flatMap((p) => tableScans(p, ['resellers', 'r', 'o', 'lines', 'ln'])), shown).toEqual([]);
      // the caller's whole subtree, found by ancestor alone (the IN list a one-row check must not build)
      expect(plans.flat().filter((l) => /SEARCH reseller_tree .*\(ancestor_id=\?\)/.test(l)), shown).toEqual([]);
    });
  }
});
