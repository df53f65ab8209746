// Plan tests: every benchmarked list case (server/src/scripts/plan-cases.ts) runs through the product's own
// service on a seeded database; each statement it sends is explained and the case fails when a plan
// scans the lines or logs table, or stops naming the index the case is built on. Timings are too
// noisy for CI; plans are not.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';

// SQLite: the lists walk the sort's index past LIST_COUNT_CAP matches (db/paginate.ts); scaled to
// this seed (2.5 % of its lines, as the plan matrix test does), the cases plan as at a million
// lines. PostgreSQL's planner chooses by itself (at this cap it would read this small table in order).
vi.hoisted(() => {
  if (process.env.TEST_DB !== 'postgres') process.env.LIST_COUNT_CAP = String(Math.round(Number(process.env.PLAN_LINES ?? 20_000) / 40));
});
import { captureQueries, caseScans, explain, tableScans } from '../../src/db/plans.ts';
import { invalidateFor } from '../../src/modules/dashboard/cache.ts';
import * as lines from '../../src/modules/lines/service.ts';
import * as logs from '../../src/modules/logs/service.ts';
import { findVisible } from '../../src/modules/resellers/repo.ts';
import { PLAN_CASES } from '../../src/scripts/plan-cases.ts';
import { ENGINE, type TestContext, createTestContext } from '../helpers.ts';
import { PLAN_LINES, type PlanActors, now, seedPlanDatabase } from '../plan-seed.ts';

let t: TestContext;
let actors: PlanActors;

describe(`list plans (${ENGINE})`, () => {
  beforeAll(async () => {
    t = await createTestContext();
    actors = await seedPlanDatabase(t.database, { lines: PLAN_LINES, online: false });
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
      const queries = await captureQueries(t.database, (db) => c.run({ ...deps, database: { ...t.database, db } }, actors[c.as], { reseller: 'plan_res5', now, deepPage: Math.floor(PLAN_LINES / 200) }));
      expect(queries.length).toBeGreaterThan(0);
      const plans = await Promise.all(queries.map((q) => explain(t.database, q)));
      const shown = queries.map((q, i) => `${q.sql}\n${plans[i].join('\n')}`).join('\n\n');
      if (process.env.PLAN_PRINT) console.log(`## ${title}\n${shown}`);
      expect(plans.flatMap((p, i) => caseScans(c, queries[i].sql, p)), shown).toEqual([]);
      for (const name of c.uses[ENGINE]) expect(plans.flat().some((l) => l.includes(name)), `${name} missing in:\n${shown}`).toBe(true);
    });
  }

  // A deep page reached by the pager (the previous page's meta.next as `after`): a seek on the
  // sort's index, with no OFFSET at all, and the rows of the page by number.
  const deepPages: [string, (deps: TestContext['deps'], q: { page: number; after?: string }) => Promise<{ data: { id: number }[]; meta: { next?: string } }>, string][] = [
    // (10 a page: PostgreSQL fetches 100 rows of this small seed's lines by a seq scan and a hash, as a first page of 100 would)
    ['admin / users status=1 by username desc', (d, q) => lines.list(d, actors.admin, { status: 1, order_by: 'username,desc', ...q }), 'lines_live_username'],
    ['admin / logs action=user_renew', (d, q) => logs.list(d, actors.admin, { actions: 'user_renew', ...q }), 'logs_action_created'],
    ['master / logs', (d, q) => logs.list(d, actors.master, q), 'logs_top_created'],
  ];
  for (const [title, run, index] of deepPages) {
    test(`${title}, page 30 by cursor`, async () => {
      const deps = t.deps;
      const before = await run(deps, { page: 29 });
      const byNumber = await run(deps, { page: 30 });
      expect(before.meta.next).toBeTruthy();
      let page: Awaited<ReturnType<typeof run>> | undefined;
      const queries = await captureQueries(t.database, async (db) => {
        page = await run({ ...deps, database: { ...t.database, db } }, { page: 30, after: before.meta.next });
      });
      expect(page?.data.map((r) => r.id)).toEqual(byNumber.data.map((r) => r.id));
      const plans = await Promise.all(queries.map((q) => explain(t.database, q)));
      const shown = queries.map((q, i) => `${q.sql} ${JSON.stringify(q.parameters)}\n${plans[i].join('\n')}`).join('\n\n');
      if (process.env.PLAN_PRINT) console.log(`## ${title}, page 30 by cursor\n${shown}`);
      // every OFFSET of the page's statements is 0 (kysely binds it last after its LIMIT)
      const offsets = queries.filter((q) => /\boffset\b/i.test(q.sql));
      for (const q of offsets) expect(q.parameters.at(-1), shown).toBe(0);
      expect(plans.flatMap((p, i) => caseScans({ dense: true }, queries[i].sql, p)), shown).toEqual([]);
      expect(plans.flat().some((l) => l.includes(index)), `${index} missing in:\n${shown}`).toBe(true);
    });
  }
});

// Every spend runs these in its transaction: one row each, so no plan may read the whole resellers
// table or build the caller's subtree. SQLite only: PostgreSQL rightly scans 100 resellers here.
describe.runIf(ENGINE === 'sqlite')('per-spend statements (sqlite)', () => {
  beforeAll(async () => {
    t = await createTestContext();
    actors = await seedPlanDatabase(t.database, { lines: PLAN_LINES, online: false });
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
