// Every list case of `npm run bench` (and the P2P list), as the product's services run them (the plan
// tests scale the count's cap to their seed, LIST_COUNT_CAP: a broad filter walks its sort's index,
// fewer matches than the cap are sorted, as at a million lines). The plan
// tests (test/list-plans.test.ts) and `npm run plans` (plans at scale) explain the statements each
// case sends. `uses`: indexes the case's plans must name on each engine; a plan that scans the lines
// or logs table fails whatever it names.
import type { Deps } from '../deps.ts';
import type { AuthUser } from '../domain/auth-user.ts';
import * as dashboard from '../modules/dashboard/service.ts';
import * as lines from '../modules/lines/service.ts';
import * as logs from '../modules/logs/service.ts';
import * as p2p from '../modules/p2p/service.ts';
import * as resellers from '../modules/resellers/service.ts';

export interface PlanCase {
  as: 'admin' | 'master' | 'reseller';
  name: string;
  /**
   * `deepPage`: the master's deep page (default 1000, inside bench_master1's 100,000 lines; the
   * plan test's small seed passes one inside its master's lines, since a page past the end of an
   * exact total reads nothing)
   */
  run(deps: Deps, actor: AuthUser, ctx: { reseller: string; now: number; deepPage?: number }): Promise<unknown>;
  uses: { sqlite: string[]; postgres: string[] };
  /** most rows match: on PostgreSQL the capped count may read the table in order under its Limit */
  dense?: boolean;
  /**
   * no index narrows the filter (a search term in a quarter of the lines): the page and the capped
   * count walk the lines in id order and stop at their LIMIT, which is what the case guards (no sort
   * of every match, no count without its cap); on SQLite the walk may read the table itself
   */
  walk?: boolean;
  /** why this case still misses its index (the test is a todo until it is fixed) */
  known?: string;
}

const day = (offsetDays: number, now: number) => new Date((now + offsetDays * 86_400) * 1000).toISOString().slice(0, 10);
const both = (...names: string[]) => ({ sqlite: names, postgres: names });
// PostgreSQL walks the primary key for pages in id order (heap rows it reads anyway to return them).
const byId = { sqlite: ['lines_live_id'], postgres: ['lines_pkey'] };
// A rare search term: candidates from the trigram indexes of migration 022.
const trigram = { sqlite: ['lines_search'], postgres: ['lines_username_trgm', 'lines_notes_trgm', 'lines_whatsapp_trgm'] };

export const PLAN_CASES: PlanCase[] = [
  { as: 'admin', name: 'users first page', run: (d, a) => lines.list(d, a, {}), uses: byId },
  { as: 'admin', name: 'users page 1000', run: (d, a) => lines.list(d, a, { page: 1000 }), uses: byId },
  { as: 'admin', name: 'users status=1 (active)', run: (d, a) => lines.list(d, a, { status: 1 }), uses: byId, dense: true },
  { as: 'admin', name: 'users status=3 (expired)', run: (d, a) => lines.list(d, a, { status: 3 }), uses: { sqlite: ['lines_live_id', 'lines_live_exp'], postgres: ['lines_live_exp'] } },
  { as: 'admin', name: 'users status=4 (not expired)', run: (d, a) => lines.list(d, a, { status: 4 }), uses: byId, dense: true },
  { as: 'admin', name: 'users status=0 (blocked)', run: (d, a) => lines.list(d, a, { status: 0 }), uses: { sqlite: ['lines_live_id'], postgres: ['lines_blocked'] } },
  { as: 'admin', name: 'users type_user=trial', run: (d, a) => lines.list(d, a, { type_user: 'trial' }), uses: { sqlite: ['lines_live_id'], postgres: ['lines_trial'] } },
  { as: 'admin', name: 'users type_user=normal', run: (d, a) => lines.list(d, a, { type_user: 'normal' }), uses: byId, dense: true },
  { as: 'admin', name: 'users created range', run: (d, a, c) => lines.list(d, a, { created: `${day(-30, c.now)},${day(0, c.now)}` }), uses: both('lines_live_created') },
  { as: 'admin', name: 'users reseller=<one reseller>', run: (d, a, c) => lines.list(d, a, { reseller: c.reseller }), uses: { sqlite: ['lines_member_counters'], postgres: ['lines_member_id'] } },
  { as: 'admin', name: 'users id=4242', run: (d, a) => lines.list(d, a, { id: 4242 }), uses: { sqlite: ['INTEGER PRIMARY KEY'], postgres: ['lines_pkey'] } },
  { as: 'admin', name: 'users username prefix', run: (d, a) => lines.list(d, a, { username: 'b3f' }), uses: both('lines_username_lower') },
  // A common term: the id walk (SQLite reads the table itself in rowid order, PostgreSQL lines_pkey).
  { as: 'admin', name: 'users text_search', run: (d, a) => lines.list(d, a, { text_search: 'indicado' }), uses: { sqlite: [], postgres: ['lines_pkey'] }, walk: true },
  { as: 'admin', name: 'users text_search, rare term', run: (d, a) => lines.list(d, a, { text_search: 'zq7xw' }), uses: trigram },
  { as: 'admin', name: 'users sort exp_date asc', run: (d, a) => lines.list(d, a, { order_by: 'exp_date,asc' }), uses: both('lines_live_exp') },
  { as: 'admin', name: 'users sort exp_date desc, page 1000', run: (d, a) => lines.list(d, a, { order_by: 'exp_date,desc', page: 1000 }), uses: both('lines_live_exp') },
  { as: 'admin', name: 'users sort created_at desc', run: (d, a) => lines.list(d, a, { order_by: 'created_at,desc' }), uses: both('lines_live_created') },
  { as: 'admin', name: 'expiring', run: (d, a) => lines.expiring(d, a, {}), uses: both('lines_renewable_exp'), dense: true },
  { as: 'admin', name: 'logs', run: (d, a) => logs.list(d, a, {}), uses: both('logs_created_scope'), dense: true },
  { as: 'admin', name: 'logs last 7 days', run: (d, a, c) => logs.list(d, a, { dates: `${(c.now - 7 * 86_400) * 1000},${c.now * 1000}` }), uses: both('logs_created_scope') },
  { as: 'admin', name: 'logs action=user_renew', run: (d, a) => logs.list(d, a, { actions: 'user_renew' }), uses: both('logs_action_created') },
  { as: 'admin', name: 'logs reseller=<id>', run: (d, a) => logs.list(d, a, { reseller: 3 }), uses: both('logs_reseller_created') },
  { as: 'admin', name: 'logs toreseller=<id>', run: (d, a) => logs.list(d, a, { toreseller: 3 }), uses: both('logs_target_created') },
  { as: 'admin', name: 'resellers list', run: (d, a) => resellers.list(d, a, {}), uses: { sqlite: ['INTEGER PRIMARY KEY'], postgres: ['resellers_pkey'] } },
  { as: 'admin', name: 'p2p list', run: (d, a) => p2p.list(d, a, {}), uses: { sqlite: ['p2p_live_id'], postgres: ['p2p_accounts_pkey'] }, dense: true },
  { as: 'master', name: 'users first page', run: (d, a) => lines.list(d, a, {}), uses: both('lines_top_id') },
  { as: 'master', name: 'users page 1000', run: (d, a, c) => lines.list(d, a, { page: c.deepPage ?? 1000 }), uses: both('lines_top_id') },
  { as: 'master', name: 'users status=1', run: (d, a) => lines.list(d, a, { status: 1 }), uses: { sqlite: ['lines_top_id'], postgres: ['lines_top_id'] } },
  { as: 'master', name: 'users status=0 (blocked)', run: (d, a) => lines.list(d, a, { status: 0 }), uses: { sqlite: ['lines_top_exp'], postgres: ['lines_top_id'] } },
  { as: 'master', name: 'users type_user=trial', run: (d, a) => lines.list(d, a, { type_user: 'trial' }), uses: both('lines_top_id') },
  { as: 'master', name: 'users created range', run: (d, a, c) => lines.list(d, a, { created: `${day(-30, c.now)},${day(0, c.now)}` }), uses: both('lines_member_created') },
  { as: 'master', name: 'users sort exp_date asc', run: (d, a) => lines.list(d, a, { order_by: 'exp_date,asc' }), uses: both('lines_top_exp') },
  { as: 'master', name: 'users sort exp_date desc', run: (d, a) => lines.list(d, a, { order_by: 'exp_date,desc' }), uses: both('lines_top_exp') },
  { as: 'master', name: 'users text_search', run: (d, a) => lines.list(d, a, { text_search: 'indicado' }), uses: { sqlite: ['lines_top_id'], postgres: ['lines_pkey'] }, walk: true },
  { as: 'master', name: 'users text_search, rare term', run: (d, a) => lines.list(d, a, { text_search: 'zq7xw' }), uses: trigram },
  { as: 'master', name: 'expiring', run: (d, a) => lines.expiring(d, a, {}), uses: both('lines_renewable_exp') },
  { as: 'master', name: 'resellers list', run: (d, a) => resellers.list(d, a, {}), uses: { sqlite: ['resellers_owner'], postgres: ['resellers_pkey'] } },
  // a top-level master's log: two ranges of its top-reseller columns (migration 023)
  { as: 'master', name: 'logs', run: (d, a) => logs.list(d, a, {}), uses: both('logs_top_created', 'logs_target_top_created') },
  { as: 'master', name: 'logs last 7 days', run: (d, a, c) => logs.list(d, a, { dates: `${(c.now - 7 * 86_400) * 1000},${c.now * 1000}` }), uses: both('logs_top_created', 'logs_target_top_created') },
  { as: 'master', name: 'logs action=user_renew', run: (d, a) => logs.list(d, a, { actions: 'user_renew' }), uses: both('logs_top_created', 'logs_target_top_created') },
  // below the top level (a reseller, a nested master): its subtree's ids in the owner indexes
  // (fewer rows than the count's cap: read through the owner indexes and sorted, no walk of the time index)
  { as: 'reseller', name: 'logs', run: (d, a) => logs.list(d, a, {}), uses: both('logs_reseller_created', 'logs_target_created') },
  // the dashboard's uncached part: from the open connections, never from a master's lines
  { as: 'master', name: 'dashboard online', run: (d, a) => dashboard.online(d, a), uses: { sqlite: ['line_activity_last_seen'], postgres: [] } },
  { as: 'master', name: 'p2p list', run: (d, a) => p2p.list(d, a, {}), uses: { sqlite: ['p2p_accounts_member'], postgres: ['p2p_accounts_pkey'] } },
];
