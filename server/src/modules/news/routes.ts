import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import * as service from './service.ts';

const NewsItem = Type.Object({ id: Type.Integer(), title: Type.String(), body: Type.String(), level: Type.Integer(), status: Type.Integer() }, { title: 'NewsItem' });
const NewsBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  body: Type.String({ minLength: 1, maxLength: 10_000 }),
  level: Type.Integer({ minimum: 0, maximum: 10 }),
  status: Type.Integer({ minimum: 0, maximum: 1 }),
});

/** News: item 1 is the dashboard notice, item 2 shows in the short-link modal. Text only, never HTML. */
export function newsRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['news'];
  r.get('/news', { schema: { tags, response: { 200: Type.Object({ data: Type.Array(NewsItem) }) } } }, (req) => service.list(deps, req.user));
  r.put(
    '/news/:id',
    { config: { roles: ['admin'] }, schema: { tags, params: IdParams, body: NewsBody, response: { 200: NewsItem } } },
    (req) => service.update(deps, req.user, req.params.id, req.body),
  );
}
