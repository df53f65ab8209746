import { type Static, Type } from 'typebox';
import { type Order, COUNT_CAP, TEXT_SEARCH_COUNT_CAP } from '../db/paginate.ts';
import { validation } from './errors.ts';

export const PER_OPTIONS = [10, 20, 30, 50, 100] as const;

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  per: Type.Optional(Type.Integer({ enum: [...PER_OPTIONS], default: 10 })),
  order_by: Type.Optional(Type.String({ maxLength: 60 })),
};

export const PageMeta = Type.Object({
  page: Type.Integer(),
  per: Type.Integer(),
  count: Type.Integer(),
  pages: Type.Integer(),
  total: Type.Integer(),
  /** true when total stopped at COUNT_CAP: "more than COUNT_CAP" rows match */
  capped: Type.Optional(Type.Boolean()),
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
    throw validation('order_by', `must be one of ${Object.keys(allowed).join(', ')} with asc or desc`);
  }
  return { column, direction: dir };
}

