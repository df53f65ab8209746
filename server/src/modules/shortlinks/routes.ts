import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { LINK_TYPES, linksOf, resolve, shorten } from './service.ts';

const Links = Type.Object(Object.fromEntries(LINK_TYPES.map((t) => [t, Type.String()])) as Record<(typeof LINK_TYPES)[number], ReturnType<typeof Type.String>>);

export function shortlinkRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['users'];
  r.post(
    '/shorturl',
    {
      schema: {
        tags,
        body: Type.Object({
          url: Type.Optional(Type.String({ maxLength: 1000 })),
          user_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
          type: Type.Union(LINK_TYPES.map((t) => Type.Literal(t))),
        }),
        response: { 200: Type.Object({ url: Type.String(), original: Type.String() }) },
      },
    },
    (req) => shorten(deps, req.user, req.body.user_id, req.body.type, `${req.protocol}://${req.host}`),
  );
  r.get('/users/:id/links', { schema: { tags, params: IdParams, response: { 200: Links } } }, (req) =>
    linksOf(deps, req.user, req.params.id),
  );
}

/** GET /s/{code}: public, outside /api. */
export function publicShortlinkRoute(app: FastifyInstance, deps: Deps): void {
  app.get<{ Params: { code: string } }>('/s/:code', { schema: { hide: true } }, async (req, reply) => {
    const target = await resolve(deps, req.params.code);
    if (!target) return reply.status(404).send({ statusCode: 404, code: 'NOT_FOUND', message: 'Short link not found' });
    return reply.redirect(target, 302);
  });
}
