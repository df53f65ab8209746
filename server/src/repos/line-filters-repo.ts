import { sql } from 'kysely';
import type { AuthUser } from '../domain/auth-user.ts';
import { type OwnerWalk, afterPrefix, escapeLike, visibleLines } from './scope-repo.ts';
import type { Tx } from '../db/tx.ts';

/** The user list's filters, by their query names: id, username, text_search, reseller, created, type_user, status. */
export interface LineFilters {
  id?: number;
  username?: string;
  text_search?: string;
  reseller?: string;
  created?: string;
  type_user?: 'normal' | 'trial';
  status?: 0 | 1 | 3 | 4;
}

/**
 * "2026-01-31" or "2026-01-01,2026-01-31" (inclusive days in the caller's time zone, given as
 * minutes east of UTC) -> [from, to) epoch seconds.
 */
export function createdRange(raw: string, tzOffsetMinutes = 0): [number, number] | null {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length < 1 || parts.length > 2 || parts.some((p) => !/^\d{4}-\d{2}-\d{2}$/.test(p))) return null;
  const from = Date.parse(`${parts[0]}T00:00:00Z`) / 1000 - tzOffsetMinutes * 60;
  const to = Date.parse(`${parts[parts.length - 1]}T00:00:00Z`) / 1000 + 86_400 - tzOffsetMinutes * 60;
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) return null;
  return [from, to];
}

/** The term as one FTS5 phrase: with the trigram tokenizer, lines holding it as a substring (any case). */
const ftsPhrase = (term: string) => `"${term.replaceAll('"', '""')}"`;

/**
 * How a free-text search reaches its rows. A common term is found soonest by walking the page's
 * order (`undefined` on SQLite, 'walk' on PostgreSQL); a rare one through the trigram index ('fts':
 * SQLite FTS5, 'trgm': pg_trgm), which a walk would read the whole scope for (0.4-2.6 s at 1M lines).
 */
export type TextSearchPath = 'fts' | 'trgm' | 'walk' | undefined;

/** Past this many candidates a term is common: the id walk finds a page (and the capped count) sooner. */
export const SEARCH_INDEX_MAX = 5_000;
/**
 * PostgreSQL: a term matching at least COMMON_MATCHES of the scope's newest SEARCH_PROBE_ROWS lines
 * (5 %) is common: walking then finds the capped count's 1,001 matches within ~20,000 rows.
 */
const SEARCH_PROBE_ROWS = 2_000;
const COMMON_MATCHES = 100;

/**
 * SQLite: does the trigram index narrow this search? The number of lines (any scope, up to
 * SEARCH_INDEX_MAX + 1) holding the term; undefined under 3 characters, which no trigram holds.
 * PostgreSQL's planner makes the same choice from its statistics (pg_trgm indexes, migration 022).
 */
export async function searchIndexMatches(db: Tx, term: string): Promise<number | undefined> {
  if ([...term].length < 3) return undefined;
  const row = await sql<{ n: number }>`select count(*) as n from (select 1 from lines_search where lines_search match ${ftsPhrase(term)} limit ${SEARCH_INDEX_MAX + 1})`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}

/**
 * PostgreSQL: is the term common in the scope's newest lines (see SEARCH_PROBE_ROWS)? A common
 * term's GIN bitmap costs ~65 ms at 1M lines, and the planner cannot tell common from rare: it
 * estimates every `%term%` alike.
 */
export async function commonInWalk(db: Tx, scope: ReturnType<typeof visibleLines>, term: string): Promise<boolean> {
  const newest = scope.select(['ln.username', 'ln.reseller_notes', 'ln.whatsapp']).orderBy('ln.id', 'desc').limit(SEARCH_PROBE_ROWS);
  const row = await db
    .selectFrom(newest.as('w'))
    .select(sql<number>`count(*)`.as('n'))
    .where(textMatch('w', containsPattern(term), true))
    .executeTakeFirst();
  return Number(row?.n ?? 0) >= COMMON_MATCHES;
}

/** Share of the lines table's pages the PostgreSQL estimate reads (~30 pages, ~2,000 lines at 1M). */
const SAMPLE_PERCENT = 0.2;

/**
 * PostgreSQL: how many lines (any scope) hold the term, estimated from a random SAMPLE_PERCENT of
 * the table's pages (3-5 ms at 1M lines). Counting the trigram candidates of a term in 25 % of the
 * lines up to a limit of 100,000 took over a second: the estimate sends such a term to the walk first.
 */
export async function sampledMatches(db: Tx, term: string): Promise<number> {
  const row = await sql<{ hits: number }>`select count(*) as hits from lines m tablesample system (${sql.lit(SAMPLE_PERCENT)})
    where m.deleted_at is null and ${textMatch('m', containsPattern(term), true)}`.execute(db);
  return Number(row.rows[0]?.hits ?? 0) * (100 / SAMPLE_PERCENT);
}

/**
 * PostgreSQL: lines (any scope, up to `limit` + 1) the trigram indexes give for a term the probe
 * above found rare. The probe reads only the newest lines: a term common in older lines (a
 * reseller's newest lines lack it) went to the trigram path and gathered every match (250,000
 * at 1M lines: 2 s). Past `limit` candidates the list walks instead (see textSearchPath).
 */
export async function trigramMatches(db: Tx, term: string, limit: number): Promise<number> {
  const row = await sql<{ n: number }>`select count(*) as n from (select 1 from lines m where m.deleted_at is null
    and ${textMatch('m', containsPattern(term), false)} limit ${limit + 1}) as candidates`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}

/** `%term%` as the lists compare it (lower-cased, LIKE wildcards escaped). */
const containsPattern = (term: string) => sql`${`%${escapeLike(term.toLowerCase())}%`} escape '\\'`;

/**
 * The text-search test over a line's username, notes and WhatsApp (`alias`: the lines table's
 * name in the statement). `unindexed`: each column through coalesce, an expression no trigram
 * index holds, so PostgreSQL cannot pick one (see TextSearchPath).
 */
function textMatch(alias: string, pattern: ReturnType<typeof containsPattern>, unindexed: boolean) {
  const col = (expr: string) => sql.raw(unindexed ? `coalesce(${expr}, '')` : expr);
  return sql<boolean>`(${col(`lower(${alias}.username)`)} like ${pattern} or ${col(`lower(${alias}.reseller_notes)`)} like ${pattern} or ${col(`${alias}.whatsapp`)} like ${pattern})`;
}

/**
 * The filtered list query. `walk` (the sort column, when more rows match than the count's cap and
 * no filter is selective) keeps SQLite from using the other filters' indexes (unary +): walking
 * the sort's index, which holds every filter column, finds a page of a broad filter in a few
 * entries, where a filter's index would have to sort every match first. A filter on the sort
 * column itself stays a range of that index. SQLite only: PostgreSQL's planner makes this choice itself.
 */
export function filtered(
  db: Tx,
  actor: AuthUser,
  f: LineFilters,
  now: number,
  opts: { createdAt?: [number, number]; resellerId?: number; scanInOrder?: boolean; walk?: string; top?: boolean; search?: TextSearchPath; ownerFirst?: OwnerWalk } = {},
) {
  const { createdAt, resellerId } = opts;
  const col = (name: string) => (opts.walk && opts.walk !== name ? sql`+${sql.ref(name)}` : sql.ref(name));
  // A username prefix is the narrowest index there is: the scope is then tested on its matches.
  // With an owner too, from two characters on: a two-letter prefix is about 1/1,300 of the lines,
  // where one owner may have tens of thousands (11,000 read for 3 matches: 25 ms on SQLite).
  const byPrefix = !!f.username && (resellerId === undefined || [...f.username].length >= 2);
  // The online list walks the open connections (`walk` on line_activity): no owner index may drive it.
  const connectionsFirst = !!opts.walk?.startsWith('a.');
  let q = visibleLines(db, actor, (!!opts.scanInOrder && resellerId === undefined) || byPrefix || connectionsFirst, !!opts.top && !byPrefix && resellerId === undefined, opts.ownerFirst ?? false);
  if (f.id !== undefined) q = q.where('ln.id', '=', f.id);
  if (f.username) {
    // Case-insensitive prefix as a range on the lower(username) index, then LIKE for exact
    // prefix semantics whatever the collation.
    const prefix = f.username.toLowerCase();
    const upper = afterPrefix(prefix);
    q = q
      .where(sql`lower(ln.username)`, '>=', prefix)
      .$if(upper !== undefined, (b) => b.where(sql`lower(ln.username)`, '<', upper as string))
      // (the LIKE through coalesce: PostgreSQL would otherwise pick the trigram index over the range)
      .where(sql`coalesce(lower(ln.username), '')`, 'like', sql`${`${escapeLike(prefix)}%`} escape '\\'`);
  }
  if (f.text_search) {
    const pattern = containsPattern(f.text_search);
    // 'walk': PostgreSQL walks the page's order (its LIKE estimates would otherwise pick a trigram
    // index for a common term). A rare term: the trigram index's candidates first; the LIKE stays the test.
    q = q.where(textMatch('ln', pattern, opts.search === 'walk'));
    if (opts.search === 'fts') q = q.where('ln.id', 'in', sql<number>`(select rowid from lines_search where lines_search match ${ftsPhrase(f.text_search)})`);
    if (opts.search === 'trgm') {
      q = q.where('ln.id', '=', sql<number>`any(array(select m.id from lines m where m.deleted_at is null and ${textMatch('m', pattern, false)}))`);
    }
  }
  if (resellerId !== undefined) q = q.where(connectionsFirst || byPrefix ? sql`+ln.member_id` : sql.ref('ln.member_id'), '=', resellerId);
  if (createdAt) q = q.where(col('ln.created_at'), '>=', createdAt[0]).where(col('ln.created_at'), '<', createdAt[1]);
  // Flags are literals: the partial indexes (lines_blocked, lines_trial, lines_renewable_exp) are
  // then chosen once per statement text (a bound flag makes SQLite re-prepare the cached statement
  // whenever its value changes, and a generic PostgreSQL plan could not use them).
  if (f.type_user === 'trial') q = q.where(col('ln.is_trial'), '=', sql.lit(1));
  if (f.type_user === 'normal') q = q.where(col('ln.is_trial'), '=', sql.lit(0));
  if (f.status === 1) q = q.where(col('ln.enabled'), '=', sql.lit(1)).where(col('ln.exp_date'), '>', now);
  if (f.status === 4) q = q.where(col('ln.exp_date'), '>', now);
  if (f.status === 3) q = q.where(col('ln.exp_date'), '<=', now);
  if (f.status === 0) q = q.where(col('ln.enabled'), '=', sql.lit(0));
  return q;
}
