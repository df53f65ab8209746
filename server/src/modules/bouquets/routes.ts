import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { requireRole } from '../../http/auth.ts';
import { IdParams } from '../../http/schemas.ts';
import * as service from './service.ts';

export const Bouquet = Type.Object({ id: Type.Integer(), bouquet_name: Type.String() });
const Body = Type.Object({ bouquet_name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }) });

export function bouquetRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['bouquets'];
  r.get('/admin/bouquets', { schema: { tags, response: { 200: Type.Object({ data: Type.Array(Bouquet) }) } } }, async (req) => {
    requireRole(req, 'admin');
    return { data: await service.list(deps) };
  });
  r.post('/admin/bouquets', { schema: { tags, body: Body, response: { 201: Bouquet } } }, async (req, reply) => {
    const actor = requireRole(req, 'admin');
    return reply.status(201).send(await service.create(deps, actor, req.body.bouquet_name.trim()));
  });
  r.put('/admin/bouquets/:id', { schema: { tags, params: IdParams, body: Body, response: { 200: Bouquet } } }, async (req) => {
    const actor = requireRole(req, 'admin');
    return service.update(deps, actor, req.params.id, req.body.bouquet_name.trim());
  });
  r.delete('/admin/bouquets/:id', { schema: { tags, params: IdParams } }, async (req, reply) => {
    const actor = requireRole(req, 'admin');
    await service.remove(deps, actor, req.params.id);
    return reply.status(204).send();
  });
}
