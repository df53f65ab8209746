// The list matrix: every combination of filters, sort and page a user can produce on the list
// routes, generated from the OpenAPI document (server/openapi.json) rather than named by hand.
// `npm run bench -- --suite matrix` (bench-matrix.ts) sends them to a running server and
// test/list-plan-matrix.test.ts runs them through the services and explains every statement.
//
// A list route: a GET under /api without a path parameter whose query has `page`, a page size
// (`per` or `per_page`) and a sort (`order_by`, the pattern of http/paging.ts `orderBy`, or the
// expiring list's `order=asc|desc`). Its combinations: no filter, each filter alone and each pair
// of filters, x every offered sort x asc/desc x page 1 and a deep page (PAGES). A filter's values:
// its schema's enum (or a small integer range), else VALUE_TABLE by parameter name, filled from
// rows the caller sees on the unfiltered first page, or on its first page of lines when that list
// is empty (a username prefix of a listed line, its owner, ...). A parameter without a value is
// left out (and said so).
import type { Deps } from '../deps.ts';
import type { AuthUser } from '../domain/auth-user.ts';
import { orderFieldsOf } from '../http/paging.ts';
import * as catalogue from '../modules/catalogue/service.ts';
import * as connections from '../modules/connections/service.ts';
import * as lines from '../modules/lines/service.ts';
import * as logs from '../modules/logs/service.ts';
import * as p2p from '../modules/p2p/service.ts';
import * as packages from '../modules/packages/service.ts';
import * as resellers from '../modules/resellers/service.ts';
import * as vods from '../modules/vods/service.ts';

export interface ParamSchema {
  type?: string;
  enum?: unknown[];
  anyOf?: ParamSchema[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
}
interface OpenApiParam {
  in: string;
  name: string;
  schema?: ParamSchema;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, { parameters?: OpenApiParam[] } | undefined>>;
}

export type Query = Record<string, string>;

export interface ListRoute {
  path: string;
  /** the page-size parameter: per, or per_page (content requests) */
  perName: string;
  /** each offered sort with each direction, as query parameters */
  sorts: Query[];
  /** parameters that narrow the list, with their schemas */
  filters: { name: string; schema: ParamSchema }[];
}

/** Parameters that change how the list is shown, not which rows: never combined as filters. */
const NOT_FILTERS = new Set(['page', 'per', 'per_page', 'order_by', 'order', 'tz_offset', 'after', 'before']);

/** The list routes of an OpenAPI document (see the head of this file). */
export function listRoutes(doc: OpenApiDoc): ListRoute[] {
  const out: ListRoute[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    const params = (ops.get?.parameters ?? []).filter((p) => p.in === 'query');
    if (!path.startsWith('/api/') || path.includes('{')) continue;
    const byName = new Map(params.map((p) => [p.name, p.schema ?? {}]));
    const perName = ['per', 'per_page'].find((n) => byName.has(n));
    if (!byName.has('page') || !perName) continue;
    let sorts: Query[] = [];
    const orderBy = byName.get('order_by');
    const order = byName.get('order');
    if (orderBy?.pattern) {
      const fields = orderFieldsOf(orderBy.pattern);
      if (!fields) throw new Error(`${path}: order_by pattern ${orderBy.pattern} is not orderBy()'s`);
      sorts = fields.flatMap((f) => ['asc', 'desc'].map((d) => ({ order_by: `${f},${d}` })));
    } else if (order) {
      sorts = (enumValues(order) ?? []).map((d) => ({ order: d }));
    }
    if (sorts.length === 0) continue;
    const filters = params.filter((p) => !NOT_FILTERS.has(p.name)).map((p) => ({ name: p.name, schema: p.schema ?? {} }));
    out.push({ path, perName, sorts, filters });
  }
  return out;
}

/** The values an enum (or a union of enums, or an integer range of at most 5) allows, as query text. */
export function enumValues(schema: ParamSchema): string[] | undefined {
  if (schema.enum) return schema.enum.map(String);
  if (schema.anyOf) {
    const parts = schema.anyOf.map(enumValues);
    return parts.every((p) => p !== undefined) ? parts.flat() : undefined;
  }
  if (schema.type === 'integer' && schema.minimum !== undefined && schema.maximum !== undefined && schema.maximum - schema.minimum <= 4) {
    return Array.from({ length: schema.maximum - schema.minimum + 1 }, (_, i) => String(schema.minimum! + i));
  }
  return undefined;
}

/** What a value of VALUE_TABLE is made from: rows the caller sees, and a few facts of the seed. */
export interface ValueContext {
  /**
   * the route's unfiltered first page as the caller sees it (up to 100 rows); when it is empty
   * (no open connections, no P2P users in the seed), the caller's first page of lines
   */
  rows: Record<string, unknown>[];
  /** now, epoch seconds */
  now: number;
  /** a reseller id in the caller's subtree other than the caller (the caller's own id when there is none) */
  resellerId: number;
}

const day = (offsetDays: number, now: number) => new Date((now + offsetDays * 86_400) * 1000).toISOString().slice(0, 10);
const firstOf = (c: ValueContext, ...fields: string[]) => {
  for (const row of c.rows) for (const f of fields) if (typeof row[f] === 'string' && row[f] !== '') return row[f] as string;
  return undefined;
};
const some = (...values: (string | number | undefined | null)[]) => [...new Set(values.filter((v) => v !== undefined && v !== null && v !== '').map(String))];

/**
 * A good value of a filter the schema cannot describe, by parameter name: what a user would type.
 * Free-text searches get a common term (a word in many rows) and a rare one (one row's whole name).
 */
export const VALUE_TABLE: Record<string, (c: ValueContext, schema: ParamSchema) => string[]> = {
  id: (c) => some(c.rows[0]?.id as number),
  /** a prefix of a listed username (lines: the prefix search of lines_username_lower) */
  username: (c) => some(firstOf(c, 'username')?.slice(0, 3)),
  /** lists of lines: the owner of a listed line, by username; the log: a reseller id */
  reseller: (c, s) => (s.type === 'integer' ? some(c.resellerId) : some(firstOf(c, 'master_username'))),
  toreseller: (c) => some(c.resellerId),
  created: (c) => [`${day(-30, c.now)},${day(0, c.now)}`],
  /** common: the last word of a listed note; rare: one listed line's username */
  text_search: (c) => some(firstOf(c, 'reseller_notes')?.split(' ').pop(), firstOf(c, 'username')),
  /** catalogue and content requests: a word of a listed name, and one whole name */
  search: (c) => some(firstOf(c, 'name', 'title')?.split(' ')[0], firstOf(c, 'name', 'title')),
  /** the log: the last 7 days, epoch ms */
  dates: (c) => [`${(c.now - 7 * 86_400) * 1000},${c.now * 1000}`],
  type: (c) => some(firstOf(c, 'type_log')),
  actions: (c) => some(firstOf(c, 'action')),
  user: (c) => some(firstOf(c, 'target_user')),
  group: (c) => some(c.rows[0]?.member_group_id as number),
  category_id: (c) => some(c.rows[0]?.category_id as number),
  ids: (c) => some(c.rows.slice(0, 10).map((r) => r.id).join(',')),
};

/** Each filter's values for a route (enum, else VALUE_TABLE); `missing`: filters left out for want of one. */
export function filterValues(route: ListRoute, c: ValueContext): { values: [string, string[]][]; missing: string[] } {
  const values: [string, string[]][] = [];
  const missing: string[] = [];
  for (const f of route.filters) {
    const v = enumValues(f.schema) ?? VALUE_TABLE[f.name]?.(c, f.schema) ?? [];
    if (v.length > 0) values.push([f.name, v]);
    else missing.push(f.name);
  }
  return { values, missing };
}

/** No filter, each value of each filter, and each pair of values of two filters. */
export function filterSets(values: [string, string[]][]): Query[] {
  const singles = values.map(([name, vs]) => vs.map((v) => ({ [name]: v })));
  const sets: Query[] = [{}, ...singles.flat()];
  for (let i = 0; i < singles.length; i++) for (let j = i + 1; j < singles.length; j++) for (const a of singles[i]) for (const b of singles[j]) sets.push({ ...a, ...b });
  return sets;
}

/** Page 1 and a deep page of every combination; DEEP_EXTRA: more pages a list gets unfiltered. */
export const PAGES = [
  { page: 1, per: 10 },
  { page: 200, per: 10 },
];
const DEEP_EXTRA: Record<string, { page: number; per: number }[]> = { '/api/users': [{ page: 500, per: 100 }] };

export interface Combination {
  path: string;
  /** the whole query string's parameters: filters, sort, page and page size */
  query: Query;
  /** the filters alone */
  filters: Query;
}

/** Every combination of a route: filter sets x sorts x pages. */
export function combinations(route: ListRoute, values: [string, string[]][]): Combination[] {
  const out: Combination[] = [];
  for (const filters of filterSets(values)) {
    const pages = Object.keys(filters).length === 0 ? [...PAGES, ...(DEEP_EXTRA[route.path] ?? [])] : PAGES;
    for (const sort of route.sorts) {
      for (const p of pages) out.push({ path: route.path, filters, query: { ...filters, ...sort, page: String(p.page), [route.perName]: String(p.per) } });
    }
  }
  return out;
}

export const queryText = (q: Query) => new URLSearchParams(q).toString();

/**
 * The service call each list route makes, for the plan matrix and the bench's floor: the query as
 * the route's validation leaves it (integers as numbers). `roles`: who may call it (the rest get 403).
 */
export const LIST_SERVICES: Record<string, { roles?: AuthUser['type'][]; run: (deps: Deps, actor: AuthUser, q: Record<string, unknown>) => Promise<unknown> }> = {
  '/api/users': { run: (d, a, q) => lines.list(d, a, q as never) },
  '/api/users/expiring': { run: (d, a, q) => lines.expiring(d, a, q as never) },
  '/api/users/connections': { run: (d, a, q) => connections.list(d, a, q as never) },
  '/api/logs': { run: (d, a, q) => logs.list(d, a, q as never) },
  '/api/resellers': { roles: ['admin', 'master'], run: (d, a, q) => resellers.list(d, a, q as never) },
  '/api/p2p/users': { run: (d, a, q) => p2p.list(d, a, q as never) },
  '/api/admin/packages': { roles: ['admin'], run: async (d, _a, q) => packages.list(d, q as never) },
  '/api/admin/streams': { roles: ['admin'], run: (d, _a, q) => catalogue.streams(d, q as never) },
  '/api/vods': { run: async (d, _a, q) => vods.list(d, { ...q, per: q.per_page } as never) },
  '/api/admin/vods': { roles: ['admin'], run: async (d, _a, q) => vods.adminList(d, { ...q, per: q.per_page } as never) },
};

/** A combination's query as its route's validation passes it on: integer parameters as numbers. */
export function typedQuery(route: ListRoute, query: Query): Record<string, unknown> {
  const integers = new Set([...route.filters.filter((f) => f.schema.type === 'integer').map((f) => f.name), 'page', 'per', 'per_page']);
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, integers.has(k) ? Number(v) : v]));
}
