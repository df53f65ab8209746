import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { Paged } from '../../http/paging.ts';
import { depthCheckedJsonParser } from '../../http/json-body.ts';
import * as S from './schemas.ts';
import * as service from './service.ts';

export function catalogueRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['catalogue'];
  const config = { roles: ['admin'] } as const;
  // The import in a scope of its own, where JSON bodies are parsed off the event loop.
  app.register(async (scope) => importRoute(scope, deps));
  r.get('/admin/categories', { config, schema: { tags, querystring: S.CategoriesQuery, response: { 200: Type.Object({ data: Type.Array(S.CategoryOut) }) } } }, (req) =>
    service.categories(deps, req.query.kind),
  );
  r.get('/admin/streams', { config, schema: { tags, querystring: S.StreamsQuery, response: { 200: Paged(S.StreamOut) } } }, (req) => service.streams(deps, req.query));
  // Every role: resellers show what they sell.
  r.get('/vods/latest', { schema: { tags, querystring: S.LatestQuery, response: { 200: Type.Object({ data: Type.Array(S.LatestItem) }) } } }, (req) =>
    service.latest(deps, req.query.type),
  );
}

/** Bodies up to this size are parsed on the event loop, as everywhere else; bigger ones off it. */
const OFF_THREAD_FROM = 256 * 1024;

function importRoute(scope: FastifyInstance, deps: Deps): void {
  // the server's own JSON parsing (http/json-body.ts)
  const parseSmall = depthCheckedJsonParser(scope);
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length < OFF_THREAD_FROM) {
      parseSmall(req, bytes.toString('utf8'), done);
      return;
    }
    service.parseJsonOffThread(bytes).then(
      (value) => done(null, value),
      (err: Error) => done(err, undefined),
    );
  });
  // A request's import slot, taken before its body is read: handed to its import, which gives it
  // back when it ends; a request that never reaches its import gives it back once answered or
  // aborted. (A client gone during the import gets neither hook: only the import's end frees it.)
  const waiting = new WeakMap<FastifyRequest, () => void>();
  const handOver = (req: FastifyRequest) => {
    const release = waiting.get(req);
    waiting.delete(req);
    return release;
  };
  const giveBack = async (req: FastifyRequest) => handOver(req)?.();
  scope.withTypeProvider<TypeBoxTypeProvider>().post(
    '/admin/catalogue/import',
    {
      config: { roles: ['admin'] } as const,
      // the playlist text travels in the body: 100,000 entries of a provider's playlist are 20-30 MB
      bodyLimit: S.MAX_PLAYLIST_BYTES + 64 * 1024,
      schema: {
        tags: ['catalogue'],
        description: S.IMPORT_DESCRIPTION,
        errors: { 400: ['M3U_INVALID', 'URL_NOT_ALLOWED'], 409: ['IMPORT_RUNNING'], 413: ['PAYLOAD_TOO_LARGE'], 502: ['UPSTREAM_ERROR'] },
        body: S.ImportBody,
        response: { 200: S.ImportResult },
      },
      // Runs after the role check: one import at a time (409 at once), and the body's entries are
      // counted as it arrives, refused at the first chunk past the limit (the rest is never read).
      preParsing: async (req, _reply, payload) => {
        waiting.set(req, service.takeImportSlot(deps));
        const counter = service.bodyEntryCounter();
        const counted = new Transform({
          transform(chunk: Buffer, _encoding, next) {
            try {
              counter.feed(chunk);
              next(null, chunk);
            } catch (err) {
              next(err as Error);
            }
          },
        });
        payload.on('error', (err) => counted.destroy(err));
        return payload.pipe(counted);
      },
      onResponse: giveBack,
      onRequestAbort: giveBack,
    },
    (req) => service.importCatalogue(deps, req.user, req.body, handOver(req)),
  );
}
