import { type Static, Type } from 'typebox';
import { type Order, type PageCursor, COUNT_CAP, TEXT_SEARCH_COUNT_CAP } from '../db/paginate.ts';
import { PATTERN_MESSAGES, validation } from './errors.ts';

export const PER_OPTIONS = [10, 20, 30, 50, 100] as const;

/**
 * A list's cursor parameters (db/paginate.ts): `after` the previous answer's `meta.next`, for
 * `page` at or past the next one; `before` its `meta.prev`, for `page` at or ahead of the previous
 * one. A cursor of another order or other filters, or too far from `page`, is ignored.
 */
export function CursorQuery() {
  return {
    after: Type.Optional(Type.String({ maxLength: 2000, description: "the previous answer's meta.next: `page` is read from past it (a keyset seek, not an OFFSET)" })),
    before: Type.Optional(Type.String({ maxLength: 2000, description: "the previous answer's meta.prev: `page` is read from ahead of it" })),
  };
}

/** The cursor of a list request for paginate: its `after`/`before` and the filters it is bound to. */
export const cursorOf = (q: { after?: string; before?: string }): PageCursor => ({ after: q.after, before: q.before, filters: q as Record<string, unknown> });

/** A list's paging parameters; its sorts are `order_by: orderBy(<the list's ORDER_FIELDS>)`. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  per: Type.Optional(Type.Integer({ enum: [...PER_OPTIONS], default: 10 })),
  ...CursorQuery(),
};

const orderMessage = (fields: readonly string[]) => `must be one of ${fields.join(', ')} with asc or desc`;

/**
 * A list's `order_by` query parameter: `field` or `field,asc|desc`, the fields being the keys of the
 * list's ORDER_FIELDS (the map `parseOrder` takes), so the OpenAPI document states the sorts each list
 * offers as a pattern (`^(id|username)(,(asc|desc))?$`; the web's type stays a string). A value
 * outside it is a 400 on field `order_by` naming the fields (http/errors.ts, PATTERN_MESSAGES).
 */
export function orderBy(fields: Record<string, string>) {
  const names = Object.keys(fields);
  for (const name of names) if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`order_by field ${name}: lowercase letters, digits and _ only`);
  const pattern = `^(${names.join('|')})(,(asc|desc))?$`;
  PATTERN_MESSAGES.set(pattern, orderMessage(names));
  return Type.Optional(Type.String({ pattern, description: `${names.join(', ')}; optionally followed by ,asc (the default) or ,desc` }));
}

/** The fields an `orderBy` pattern offers (the bench matrix reads them from the OpenAPI document). */
export function orderFieldsOf(pattern: string): string[] | undefined {
  const m = /^\^\(([a-z0-9_|]+)\)\(,\(asc\|desc\)\)\?\$$/.exec(pattern);
  return m ? m[1].split('|') : undefined;
}

export const PageMeta = Type.Object({
  page: Type.Integer(),
  per: Type.Integer(),
  count: Type.Integer(),
  pages: Type.Integer(),
  total: Type.Integer(),
  /** true when total stopped at COUNT_CAP: "more than COUNT_CAP" rows match */
  capped: Type.Optional(Type.Boolean()),
  /** the cursor after the page's last row: send it as `after` for the pages that follow */
  next: Type.Optional(Type.String()),
  /** the cursor before the page's first row: send it as `before` for the pages ahead */
  prev: Type.Optional(Type.String()),
}, { title: 'PageMeta' });

// The query side of paging (paginate, the count caps) is db/paginate.ts; this file is its HTTP face.
export { type Order, COUNT_CAP, TEXT_SEARCH_COUNT_CAP };

export function Paged<T extends import('typebox').TSchema>(row: T) {
  return Type.Object({ data: Type.Array(row), meta: PageMeta });
}

export type PageMetaT = Static<typeof PageMeta>;

/** Parses `order_by=field,asc|desc` against a whitelist mapping public names to SQL columns. */
export function parseOrder(raw: string | undefined, allowed: Record<string, string>, fallback: Order): Order {
  if (!raw) return fallback;
  const [field, dir = 'asc'] = raw.split(',');
  const column = Object.hasOwn(allowed, field) ? allowed[field] : undefined;
  if (!column || (dir !== 'asc' && dir !== 'desc')) {
    throw validation('order_by', orderMessage(Object.keys(allowed)));
  }
  return { column, direction: dir };
}

