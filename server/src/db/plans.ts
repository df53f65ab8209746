import type { CompiledQuery, Kysely, RootOperationNode } from 'kysely';
import type { Database } from './connection.ts';
import type { DB } from './types.ts';

/**
 * Runs `fn` against a copy of the database handle that records every statement it sends, and
 * returns them compiled, in the order they ran: the plan tests and `npm run plans` explain exactly
 * what the product runs, and the bench's floor replays it. Only executed statements count (a
 * subquery built from the handle is transformed too, but never returns a result of its own).
 */
export async function captureQueries(database: Database, fn: (db: Kysely<DB>) => Promise<unknown>): Promise<CompiledQuery[]> {
  const built = new Map<string, RootOperationNode>();
  const nodes: RootOperationNode[] = [];
  const spy = database.db.withPlugin({
    transformQuery: (args) => {
      built.set(args.queryId.queryId, args.node);
      return args.node;
    },
    transformResult: async (args) => {
      const node = built.get(args.queryId.queryId);
      if (node) nodes.push(node);
      return args.result;
    },
  });
  await fn(spy);
  const executor = database.db.getExecutor();
  return nodes.map((node, i) => executor.compileQuery(node, { queryId: `plan-${i}` }));
}

/** One line per plan node: SQLite's `EXPLAIN QUERY PLAN` details, or PostgreSQL's node type, index and relation. */
export async function explain(database: Database, query: CompiledQuery): Promise<string[]> {
  const params = query.parameters as unknown[];
  if (database.dialect === 'sqlite') {
    return explainSqlite(database, query.sql, params);
  }
  const res = await database.db.executeQuery<{ 'QUERY PLAN': unknown }>({ ...query, sql: `EXPLAIN (FORMAT JSON) ${query.sql}`, parameters: params });
  const json = res.rows[0]['QUERY PLAN'];
  const plan = (Array.isArray(json) ? json : JSON.parse(String(json)))[0].Plan as PgNode;
  const lines: string[] = [];
  const walk = (n: PgNode, depth: number) => {
    const idx = n['Index Name'] ? ` using ${n['Index Name']}` : '';
    const rel = n['Relation Name'] ? ` on ${n['Relation Name']}${n.Alias && n.Alias !== n['Relation Name'] ? ` ${n.Alias}` : ''}` : '';
    lines.push(`${'  '.repeat(depth)}${n['Node Type']}${idx}${rel}`);
    for (const c of n.Plans ?? []) walk(c, depth + 1);
  };
  walk(plan, 0);
  return lines;
}

interface PgNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Alias?: string;
  Plans?: PgNode[];
}

async function explainSqlite(database: Database, text: string, params: unknown[]): Promise<string[]> {
  const res = await database.db.executeQuery<{ id: number; parent: number; detail: string }>({
    sql: `EXPLAIN QUERY PLAN ${text}`,
    parameters: params,
    query: { kind: 'RawNode' } as never,
    queryId: { queryId: 'explain' },
  });
  const depth = new Map<number, number>([[0, -1]]);
  return res.rows.map((r) => {
    const d = (depth.get(r.parent) ?? -1) + 1;
    depth.set(r.id, d);
    return `${'  '.repeat(d)}${r.detail}`;
  });
}

/**
 * Full passes over a big table in a plan: a SQLite `SCAN` of it without an index, or a PostgreSQL
 * sequential scan. A walk of a named index is allowed (that is how a page in index order is found).
 * `bounded`: a PostgreSQL sequential scan right under a Limit is allowed (a capped count of a filter
 * most rows match stops after ~10,001 rows, which PostgreSQL rightly reads in table order).
 * `walkSql` (a `walk` case's statement): SQLite may also scan the table itself (rowid order is id order) in a statement that stops
 * at its LIMIT: the statement has one and the plan sorts nothing (no temporary B-tree).
 */
export function tableScans(plan: string[], tables: string[], bounded = false, walkSql?: string): string[] {
  const stops = walkSql !== undefined && /\blimit\b/i.test(walkSql) && !plan.some((l) => l.includes('USE TEMP B-TREE'));
  return plan.filter((l, i) => {
    const t = l.trim();
    return tables.some((name) => {
      const sqlite = new RegExp(`^SCAN ${name}\\b`).test(t) && !t.includes(' USING ') && !stops;
      const underLimit = bounded && i > 0 && plan[i - 1].trim() === 'Limit' && indent(plan[i - 1]) < indent(l);
      const pg = t.startsWith('Seq Scan') && new RegExp(` on ${name}\\b`).test(t) && !underLimit;
      return sqlite || pg;
    });
  });
}

/** What a plan case may not do (plan-cases.ts): `tableScans` of the lines and logs tables, with the case's allowances. */
export const caseScans = (c: { dense?: boolean; walk?: boolean }, sqlText: string, plan: string[]) =>
  tableScans(plan, ['lines', 'ln', 'logs', 'lg'], !!c.dense || !!c.walk, c.walk ? sqlText : undefined);

const indent = (l: string) => l.length - l.trimStart().length;
