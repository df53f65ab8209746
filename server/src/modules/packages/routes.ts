import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { PageQuery, Paged, orderBy } from '../../http/paging.ts';
import { PackageBody, PackageOut, PackageUpdateBody } from './schemas.ts';
import * as service from './service.ts';

export function packageRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['packages'];
  const config = { roles: ['admin'] } as const;
  r.get('/admin/packages', { config, schema: { tags, querystring: Type.Object({ ...PageQuery, order_by: orderBy(service.ORDER_FIELDS) }), response: { 200: Paged(PackageOut) } } }, async (req) => {
    return service.list(deps, req.query);
  });
  r.get('/admin/packages/:id', { config, schema: { tags, params: IdParams, response: { 200: PackageOut } } }, async (req) => {
    return service.get(deps, req.params.id);
  });
  r.post('/admin/packages', { config, schema: { tags, errors: { 400: ['BOUQUET_REQUIRED'] }, body: PackageBody, response: { 201: PackageOut } } }, async (req, reply) => {
    return reply.status(201).send(await service.create(deps, req.user, req.body));
  });
  r.put('/admin/packages/:id', { config, schema: { tags, params: IdParams, errors: { 400: ['BOUQUET_REQUIRED'] }, body: PackageUpdateBody, response: { 200: PackageOut } } }, async (req) => {
    return service.update(deps, req.user, req.params.id, req.body);
  });
}
