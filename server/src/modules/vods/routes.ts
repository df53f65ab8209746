import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { CursorQuery, Paged, orderBy } from '../../http/paging.ts';
import { IdParams, Nullable } from '../../http/schemas.ts';
import * as service from './service.ts';

const MediaType = Type.Union([Type.Literal('movie'), Type.Literal('tv')]);
const Status = Type.Integer({ enum: [service.PENDING, service.ADDED] });
const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

const Title = Type.Object({
  movie_id: Type.Integer(),
  title: Type.String(),
  year: Type.String(),
  stars: Type.Number(),
  image_link: Nullable(Type.String()),
  media_type: MediaType,
}, { title: 'CatalogueTitle' });
const VodRequest = Type.Object({
  id: Type.Integer(),
  /** the catalogue (TMDB) id; 0 for a title asked by name */
  movie_id: Type.Integer(),
  media_type: MediaType,
  title: Type.String(),
  year: Type.String(),
  stars: Type.Number(),
  image_link: Nullable(Type.String()),
  /** 1 pending, 2 added */
  status: Type.Integer(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
}, { title: 'VodRequest' });
const AdminVodRequest = Type.Object({ ...VodRequest.properties, notes: Type.String(), requested_by: Nullable(Type.String()) }, { title: 'AdminVodRequest' });

const RequestBody = Type.Object({
  movie_id: Id,
  media_type: Type.Optional(MediaType),
  title: Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' }),
  year: Type.String({ pattern: '^(\\d{4})?$' }),
  stars: Type.Number({ minimum: 0, maximum: 10 }),
  image_link: Type.Optional(Nullable(Type.String({ maxLength: 500, pattern: '^https://' }))),
  observacoes: Type.Optional(Type.String({ maxLength: 1000 })),
  /** the old client sends '1'; a new request is always pending */
  status: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal(1)])),
});
/** A title typed by hand: no catalogue id, year, stars or poster. */
const ManualRequestBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' }),
  media_type: Type.Optional(MediaType),
  year: Type.Optional(Type.String({ pattern: '^(\\d{4})?$' })),
  observacoes: Type.Optional(Type.String({ maxLength: 1000 })),
});
const listQuery = {
  search: Type.Optional(Type.String({ maxLength: 100 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  /** docs/rules.md: the content-request lists page by 10, 25, 50 or 100 */
  per_page: Type.Optional(Type.Integer({ enum: [10, 25, 50, 100], default: 10 })),
  order_by: orderBy(service.ORDER_FIELDS),
  ...CursorQuery(),
};
const ListQuery = Type.Object(listQuery);
const AdminListQuery = Type.Object({ ...listQuery, status: Type.Optional(Status) });
const Ids = Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true });

/** Content requests (docs/rules.md, "Other rules"): masters ask for titles, admins mark them added or remove them. */
export function vodRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['vods'];
  const admin = { roles: ['admin'] as const };
  // Plain resellers may look at the list, not ask: requests are for masters (docs/rules.md).
  const askers = { roles: ['admin', 'master'] as const };
  r.get('/vods/search', { config: askers, schema: { tags, errors: { 503: ['NOT_CONFIGURED'], 424: ['CATALOGUE_UNAVAILABLE'] }, querystring: Type.Object({ q: Type.String({ minLength: 2, maxLength: 100, pattern: '\\S' }) }), response: { 200: Type.Object({ data: Type.Array(Title) }) } } }, (req) =>
    service.search(deps, req.query.q.trim()),
  );
  // The page asks on opening, so a master reads why the search is off before typing (and asks by hand).
  r.get('/vods/search/status', { config: askers, schema: { tags, response: { 200: Type.Object({ configured: Type.Boolean() }) } } }, () => service.searchStatus(deps));
  r.get('/vods', { schema: { tags, querystring: ListQuery, response: { 200: Paged(VodRequest) } } }, (req) =>
    service.list(deps, { search: req.query.search?.trim() || undefined, page: req.query.page, per: req.query.per_page, order_by: req.query.order_by, after: req.query.after, before: req.query.before }),
  );
  r.post('/vods/pedido', { config: askers, schema: { tags, errors: { 409: ['VOD_REQUEST_EXISTS'] }, body: RequestBody, response: { 201: VodRequest } } }, async (req, reply) =>
    reply.status(201).send(await service.request(deps, req.user, req.body)),
  );
  r.post('/vods/pedido/manual', { config: askers, schema: { tags, errors: { 409: ['VOD_REQUEST_EXISTS'] }, body: ManualRequestBody, response: { 201: VodRequest } } }, async (req, reply) =>
    reply.status(201).send(await service.requestByHand(deps, req.user, req.body)),
  );
  r.put('/vods/pedido/:id', { config: admin, schema: { tags, params: IdParams, body: Type.Object({ status: Status, movie_id: Type.Optional(Id) }), response: { 200: VodRequest } } }, (req) =>
    service.updateOne(deps, req.user, req.params.id, req.body.status),
  );
  r.get(
    '/admin/vods',
    { config: admin, schema: { tags, querystring: AdminListQuery, response: { 200: Paged(AdminVodRequest) } } },
    (req) => service.adminList(deps, { search: req.query.search?.trim() || undefined, status: req.query.status, page: req.query.page, per: req.query.per_page, order_by: req.query.order_by, after: req.query.after, before: req.query.before }),
  );
  r.put('/admin/vods/status', { config: admin, schema: { tags, errors: { 404: ['NOT_FOUND'] }, body: Type.Object({ ids: Ids, status: Status }), response: { 200: Type.Object({ changed: Type.Integer() }) } } }, (req) =>
    service.setStatus(deps, req.user, req.body.ids, req.body.status),
  );
  r.delete('/admin/vods', { config: admin, schema: { tags, errors: { 404: ['NOT_FOUND'] }, body: Type.Object({ ids: Ids }), response: { 200: Type.Object({ removed: Type.Integer() }) } } }, (req) =>
    service.remove(deps, req.user, req.body.ids),
  );
}
