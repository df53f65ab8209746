import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { PageQuery, Paged, orderBy } from '../../http/paging.ts';
import { Nullable } from '../../http/schemas.ts';
import * as service from './service.ts';

const LogRow = Type.Object({
  id: Type.Integer(),
  type_log: Type.String(),
  action: Type.String(),
  user: Nullable(Type.String()),
  reseller: Nullable(Type.String()),
  toreseller: Nullable(Type.String()),
  target_user: Nullable(Type.String()),
  api_key: Nullable(Type.String({ description: 'the API key the action came through (its name), if any' })),
  value: Nullable(Type.String()),
  value_int: Nullable(Type.Integer()),
  created_at: Type.Integer(),
}, { title: 'LogEntry' });

/** The log list's filters (the export takes the same). */
export const LogFilters = {
  type: Type.Optional(Type.String({ maxLength: 30 })),
  actions: Type.Optional(Type.String({ maxLength: 1000 })),
  reseller: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  toreseller: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  user: Type.Optional(Type.String({ maxLength: 50 })),
  dates: Type.Optional(Type.String({ maxLength: 40 })),
};

export function logRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['logs'];
  r.get(
    '/logs',
    {
      schema: {
        tags,
        querystring: Type.Object({ ...PageQuery, order_by: orderBy(service.ORDER_FIELDS), ...LogFilters }),
        response: { 200: Paged(LogRow) },
      },
    },
    async (req) => service.list(deps, req.user, req.query),
  );
  r.get('/logs/getoptions', { schema: { tags, response: { 200: Type.Object({ types: Type.Array(Type.String()), actions: Type.Array(Type.String()) }) } } }, async () =>
    service.options(),
  );
}
