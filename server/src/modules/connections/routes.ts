import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { PageQuery, Paged, orderBy } from '../../http/paging.ts';
import { Nullable } from '../../http/schemas.ts';
import { ListQuery as LineListQuery } from '../lines/schemas.ts';
import * as service from './service.ts';

const { username, reseller, created, tz_offset, type_user, status } = LineListQuery.properties;
const ConnectionsQuery = Type.Object({ ...PageQuery, order_by: orderBy(service.ORDER_FIELDS), username, reseller, created, tz_offset, type_user, status });

/** The online activity row, plus where and how long. */
const Connection = Type.Object({
  activity_id: Type.Integer(),
  id: Type.Integer(),
  user_id: Type.Integer(),
  username: Type.String(),
  is_trial: Type.Integer(),
  created_at: Type.Integer(),
  master_username: Nullable(Type.String()),
  stream_id: Nullable(Type.Integer()),
  watching: Nullable(Type.String()),
  stream_display_name: Nullable(Type.String()),
  server_name: Nullable(Type.String()),
  user_ip: Type.String(),
  user_agent: Type.String(),
  date_start: Type.Integer(),
  last_seen: Type.Integer(),
  server_time: Type.Integer(),
  /** seconds since date_start */
  elapsed: Type.Integer(),
});

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const DisconnectParams = Type.Object({ line_id: Id, activity_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

export function connectionRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['users'];
  r.get('/users/connections', { schema: { tags, querystring: ConnectionsQuery, response: { 200: Paged(Connection) } } }, (req) =>
    service.list(deps, req.user, req.query as never),
  );
  r.post(
    '/users/connections/:line_id/:activity_id/disconnect',
    { schema: { tags, params: DisconnectParams, errors: { 404: ['NOT_FOUND'] }, response: { 200: Type.Object({ message: Type.String() }) } } },
    (req) => service.disconnect(deps, req.user, req.params.line_id, req.params.activity_id),
  );
}
