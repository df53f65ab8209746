import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import * as service from './service.ts';

export const Bouquet = Type.Object({ id: Type.Integer(), bouquet_name: Type.String() }, { title: 'Bouquet' });
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Body = Type.Object({ bouquet_name: Name });
const Ids = (maxItems: number) => Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems });
/** PUT: the name, and optionally the catalogue it gives (each list replaces that kind of item). */
const UpdateBody = Type.Object({ bouquet_name: Name, categories: Type.Optional(Ids(10_000)), streams: Type.Optional(Ids(100_000)) });
const Listed = Type.Object({ ...Bouquet.properties, categories_count: Type.Integer(), streams_count: Type.Integer() }, { title: 'BouquetListed' });
const WithContents = Type.Object({ ...Bouquet.properties, categories: Type.Array(Type.Integer()), streams: Type.Array(Type.Integer()) }, { title: 'BouquetWithContents' });

export function bouquetRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['bouquets'];
  const config = { roles: ['admin'] } as const;
  r.get('/admin/bouquets', { config, schema: { tags, response: { 200: Type.Object({ data: Type.Array(Listed) }) } } }, async () => {
    return { data: await service.list(deps) };
  });
  r.get('/admin/bouquets/:id', { config, schema: { tags, params: IdParams, response: { 200: WithContents } } }, (req) => service.get(deps, req.params.id));
  r.post('/admin/bouquets', { config, schema: { tags, body: Body, response: { 201: Bouquet } } }, async (req, reply) => {
    return reply.status(201).send(await service.create(deps, req.user, req.body.bouquet_name.trim()));
  });
  // 100,000 stream ids are ~1 MB of JSON
  r.put('/admin/bouquets/:id', { config, bodyLimit: 2 * 1024 * 1024, schema: { tags, params: IdParams, body: UpdateBody, response: { 200: WithContents } } }, async (req) => {
    const { bouquet_name, categories, streams } = req.body;
    return service.update(deps, req.user, req.params.id, bouquet_name.trim(), { categories, streams });
  });
  r.delete('/admin/bouquets/:id', { config, schema: { tags, params: IdParams, errors: { 409: ['BOUQUET_IN_USE'] }, response: { 204: Type.Null() } } }, async (req, reply) => {
    await service.remove(deps, req.user, req.params.id);
    return reply.status(204).send(null);
  });
}
