import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import * as service from './service.ts';

const Server = Type.Object({ id: Type.Integer(), name: Type.String(), url: Type.String(), created_at: Type.Integer() });
const Body = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }), url: Type.String({ minLength: 1, maxLength: 255 }) });

export function serverRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['servers'];
  const config = { roles: ['admin'] } as const;
  r.get('/admin/servers', { config, schema: { tags, response: { 200: Type.Object({ data: Type.Array(Server) }) } } }, () => service.list(deps));
  r.post(
    '/admin/servers',
    // `key` is shown this once: the edge sends it as X-Edge-Key; only its hash is stored
    { config, schema: { tags, body: Body, response: { 201: Type.Object({ ...Server.properties, key: Type.String() }) } } },
    async (req, reply) => reply.status(201).send(await service.create(deps, req.user, req.body)),
  );
  r.delete('/admin/servers/:id', { config, schema: { tags, params: IdParams } }, async (req, reply) => {
    await service.remove(deps, req.user, req.params.id);
    return reply.status(204).send();
  });
}
