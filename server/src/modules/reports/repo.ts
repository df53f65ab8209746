import { CompiledQuery, sql } from 'kysely';
import { COUNT_COLUMNS } from '../../db/migrations/039_reports.ts';
import type { Dialect } from '../../db/connection.ts';
import type { Tx } from '../../db/tx.ts';
import { subtreeIds } from '../../repos/scope-repo.ts';
import type { Counts } from './tally.ts';

// Reads of the kept counts (tally.ts writes them). Each is a range of one scope's rows on the
// tables' primary keys (scope_id, day | month): a year of a scope is at most 365 day rows, or a few
// month rows and the days at its edges.

/** A scope: 0 for everything (the admins), else an account's id (its whole subtree). */
export type Scope = number;

export interface DayRange {
  from: number;
  to: number;
}

/** The scope's day rows within any of `ranges`. */
export async function dayRows(db: Tx, scope: Scope, ranges: DayRange[]): Promise<(Counts & { day: number })[]> {
  if (ranges.length === 0) return [];
  // A day's figures fit an int4: cast, PostgreSQL then answers numbers (bigints come as strings),
  // and a year's 365 rows need no conversion.
  return db
    .selectFrom('report_days')
    .select(['day', ...COUNT_COLUMNS.map((c) => sql<number>`CAST(${sql.ref(c)} AS integer)`.as(c))])
    .where('scope_id', '=', scope)
    .where((eb) => eb.or(ranges.map((r) => eb.and([eb('day', '>=', r.from), eb('day', '<=', r.to)]))))
    .execute() as Promise<(Counts & { day: number })[]>;
}

/** The scope's month rows from `from` to `to` (month numbers). */
export async function monthRows(db: Tx, scope: Scope, from: number, to: number): Promise<(Counts & { month: number })[]> {
  if (from > to) return [];
  const rows = await db.selectFrom('report_months').select(['month', ...COUNT_COLUMNS]).where('scope_id', '=', scope).where('month', '>=', from).where('month', '<=', to).execute();
  return rows.map(numbers);
}

/** PostgreSQL answers bigint columns as strings. */
function numbers<T extends Record<string, unknown>>(row: T): { [K in keyof T]: number } {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as { [K in keyof T]: number };
}

/**
 * Lines and P2P accounts of the scope, not removed, whose expiry falls in [from, to): the part of a
 * day's kept expiries that has not come yet. A range of the expiry indexes (lines_live_exp,
 * p2p_accounts_exp), a day's worth of lines.
 */
export async function comingExpiries(db: Tx, scope: Scope, from: number, to: number): Promise<number> {
  let lines = db.selectFrom('lines as ln').select(sql<number>`count(*)`.as('n')).where('ln.deleted_at', 'is', null).where('ln.exp_date', '>=', from).where('ln.exp_date', '<', to);
  let accounts = db.selectFrom('p2p_accounts as pa').select(sql<number>`count(*)`.as('n')).where('pa.deleted_at', 'is', null).where('pa.expires_at', '>=', from).where('pa.expires_at', '<', to);
  if (scope !== 0) {
    lines = lines.where('ln.member_id', 'in', subtreeIds(db, scope, true));
    accounts = accounts.where('pa.member_id', 'in', subtreeIds(db, scope, true));
  }
  const [l, a] = await Promise.all([lines.executeTakeFirst(), accounts.executeTakeFirst()]);
  return Number(l?.n ?? 0) + Number(a?.n ?? 0);
}

export interface TopReseller {
  reseller_id: number;
  username: string;
  lines_created: number;
  renewals: number;
  credits_spent: number;
}

/**
 * The direct sub-resellers of `parentId`, each with its whole subtree's figures over the day ranges
 * and months given, best first by credits spent (then by id). Sub-resellers with nothing in the
 * period are left out. The children are read first, so the sums are seeks on the primary key of
 * each child's rows (asked as a subquery, PostgreSQL guessed a third of the tree and scanned).
 */
export async function topResellers(db: Tx, parentId: number, days: DayRange[], months: DayRange | undefined, limit: number): Promise<TopReseller[]> {
  const children = await db.selectFrom('resellers').select(['id', 'username']).where('owner_id', '=', parentId).execute();
  if (children.length === 0) return [];
  const ids = children.map((c) => c.id);
  const parts = [
    ...days.map((r) => sql`SELECT scope_id, lines_created, renewals, credits_spent FROM report_days WHERE scope_id IN (${sql.join(ids)}) AND day >= ${r.from} AND day <= ${r.to}`),
    ...(months ? [sql`SELECT scope_id, lines_created, renewals, credits_spent FROM report_months WHERE scope_id IN (${sql.join(ids)}) AND month >= ${months.from} AND month <= ${months.to}`] : []),
  ];
  if (parts.length === 0) return [];
  const { rows } = await sql<Omit<TopReseller, 'username'>>`
    SELECT x.scope_id AS reseller_id, sum(x.lines_created) AS lines_created, sum(x.renewals) AS renewals, sum(x.credits_spent) AS credits_spent
    FROM (${sql.join(parts, sql` UNION ALL `)}) x GROUP BY x.scope_id
    ORDER BY sum(x.credits_spent) DESC, x.scope_id
    LIMIT ${limit}`.execute(db);
  const names = new Map(children.map((c) => [c.id, c.username]));
  return rows.map((r) => ({ reseller_id: Number(r.reseller_id), username: names.get(Number(r.reseller_id)) ?? '', lines_created: Number(r.lines_created), renewals: Number(r.renewals), credits_spent: Number(r.credits_spent) }));
}

const COLUMNS = COUNT_COLUMNS.join(', ');
const SUMS = COUNT_COLUMNS.map((c) => `sum(v.${c})`).join(', ');

/** The upsert of one table from the rows `v` (account, day, month, counts): the SQL text is fixed. */
function upsert(table: 'report_days' | 'report_months', period: 'day' | 'month', after = ''): string {
  const adds = COUNT_COLUMNS.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');
  return `INSERT INTO ${table} (scope_id, ${period}, ${COLUMNS})
    SELECT * FROM (
      SELECT t.ancestor_id AS scope_id, v.${period}, ${SUMS} FROM v JOIN reseller_tree t ON t.descendant_id = v.account GROUP BY t.ancestor_id, v.${period}
      UNION ALL SELECT 0 AS scope_id, v.${period}, ${SUMS} FROM v GROUP BY v.${period}
    ) x WHERE true${after} ORDER BY scope_id, ${period}
    ON CONFLICT (scope_id, ${period}) DO UPDATE SET ${adds}`;
}

/** The statement text for `n` rows, per engine; built once (building a Kysely query costs more than running this one). */
const statements = new Map<string, string[]>();
function addStatements(dialect: Dialect, n: number): string[] {
  const key = `${dialect}:${n}`;
  let texts = statements.get(key);
  if (!texts) {
    let p = 0;
    const param = () => (dialect === 'postgres' ? `$${++p}` : '?');
    const row = () => `SELECT CAST(${param()} AS integer) AS account, CAST(${param()} AS integer) AS day, CAST(${param()} AS integer) AS month, ${COUNT_COLUMNS.map((c) => `CAST(${param()} AS bigint) AS ${c}`).join(', ')}`;
    const v = `WITH v AS (${Array.from({ length: n }, row).join(' UNION ALL ')})`;
    texts =
      dialect === 'postgres'
        ? [`${v}, d AS (${upsert('report_days', 'day')} RETURNING 1) ${upsert('report_months', 'month', ' AND (SELECT count(*) FROM d) >= 0')}`]
        : [`${v} ${upsert('report_days', 'day')}`, `${v} ${upsert('report_months', 'month')}`];
    statements.set(key, texts);
  }
  return texts;
}

/**
 * Adds rows of counts (per account, day and the day's month) to both tables, for each account's
 * scopes: itself and its ancestors (reseller_tree) and 0. Rows go in (scope, period) order, days
 * before months, so two changes lock shared rows in the same order on PostgreSQL, where it is one
 * statement (the months' insert waits for the days' through its InitPlan); SQLite runs two.
 */
export async function addCounts(trx: Tx, dialect: Dialect, rows: { account: number; day: number; month: number; counts: Counts }[]): Promise<void> {
  const parameters = rows.flatMap((r) => [r.account, r.day, r.month, ...COUNT_COLUMNS.map((c) => r.counts[c])]);
  for (const text of addStatements(dialect, rows.length)) await trx.executeQuery(CompiledQuery.raw(text, parameters));
}
