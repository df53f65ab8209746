import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import * as service from './service.ts';

export const Bouquet = Type.Object({ id: Type.Integer(), bouquet_name: Type.String() });
const Body = Type.Object({ bouquet_name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }) });

export function bouquetRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['bouquets'];
  const config = { roles: ['admin'] } as const;
  r.get('/admin/bouquets', { config, schema: { tags, response: { 200: Type.Object({ data: Type.Array(Bouquet) }) } } }, async () => {
    return { data: await service.list(deps) };
  });
  r.post('/admin/bouquets', { config, schema: { tags, body: Body, response: { 201: Bouquet } } }, async (req, reply) => {
    return reply.status(201).send(await service.create(deps, req.user, req.body.bouquet_name.trim()));
  });
  r.put('/admin/bouquets/:id', { config, schema: { tags, params: IdParams, body: Body, response: { 200: Bouquet } } }, async (req) => {
    return service.update(deps, req.user, req.params.id, req.body.bouquet_name.trim());
  });
  r.delete('/admin/bouquets/:id', { config, schema: { tags, params: IdParams } }, async (req, reply) => {
    await service.remove(deps, req.user, req.params.id);
    return reply.status(204).send();
  });
}
