import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { Paged } from '../../http/paging.ts';
import * as S from './schemas.ts';
import * as service from './service.ts';

export function catalogueRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['catalogue'];
  const config = { roles: ['admin'] } as const;
  r.post(
    '/admin/catalogue/import',
    // the playlist text travels in the body: 20,000 entries are ~4 MB
    { config, bodyLimit: S.MAX_PLAYLIST_BYTES + 64 * 1024, schema: { tags, errors: { 400: ['M3U_INVALID', 'URL_NOT_ALLOWED'], 502: ['UPSTREAM_ERROR'] }, body: S.ImportBody, response: { 200: S.ImportResult } } },
    (req) => service.importCatalogue(deps, req.user, req.body),
  );
  r.get('/admin/categories', { config, schema: { tags, querystring: S.CategoriesQuery, response: { 200: Type.Object({ data: Type.Array(S.CategoryOut) }) } } }, (req) =>
    service.categories(deps, req.query.kind),
  );
  r.get('/admin/streams', { config, schema: { tags, querystring: S.StreamsQuery, response: { 200: Paged(S.StreamOut) } } }, (req) => service.streams(deps, req.query));
  // Every role: resellers show what they sell.
  r.get('/vods/latest', { schema: { tags, querystring: S.LatestQuery, response: { 200: Type.Object({ data: Type.Array(S.LatestItem) }) } } }, (req) =>
    service.latest(deps, req.query.type),
  );
}
