import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { requestOrigin } from '../../http/origin.ts';
import { acceptsGzip, etagMatches } from './list-cache.ts';
import * as S from './schemas.ts';
import * as service from './service.ts';

/**
 * A playlist holds its line's credentials, so it is compressed per request: at the fastest level
 * (about 3 ms for 10,000 entries, on libuv's threads, not the event loop) it is a tenth of its size.
 */
const gzipFast = promisify(gzip);
const FAST = { level: constants.Z_BEST_SPEED };

/** Sends text or a stream as it is: these answers are written by the service, not serialised from the schema. */
const raw = (reply: FastifyReply, body: unknown) => reply.send(body);

/** The Xtream player API and playlists, public at the site root where players look for them. */
export function playerRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['player'];
  const security: [] = [];
  r.get('/player_api.php', { schema: { tags, security, errors: { 429: ['RATE_LIMITED'] }, querystring: S.PlayerApiQuery, response: { 200: S.PlayerApiAnswer, 304: S.NotModified } } }, async (req, reply) => {
    const answer = await service.playerApi(deps, req.query, req.ip, requestOrigin(req));
    reply.type('application/json; charset=utf-8');
    if ('list' in answer) {
      // Lists hold no credentials: a player may keep one and ask again with its ETag.
      reply.header('ETag', answer.list.etag).header('Cache-Control', 'private, no-cache').header('Vary', 'Accept-Encoding');
      if (etagMatches(req.headers['if-none-match'], answer.list.etag)) return raw(reply.code(304), '');
      // 10,000 channels are 3 MB of JSON and about a tenth of that gzipped, compressed once per list
      if (acceptsGzip(req.headers['accept-encoding'])) return raw(reply.header('Content-Encoding', 'gzip'), answer.list.gzip);
      return raw(reply, answer.list.body);
    }
    // Other answers hold the line's password: no cache may keep them.
    reply.header('Cache-Control', 'no-store');
    return raw(reply, 'stream' in answer ? answer.stream : JSON.stringify(answer.json));
  });
  r.get(
    '/get.php',
    { schema: { tags, security, errors: { 401: ['INVALID_CREDENTIALS'], 403: ['LINE_BLOCKED', 'LINE_EXPIRED', 'LINE_DISABLED'], 429: ['RATE_LIMITED'] }, querystring: S.PlaylistQuery, response: { 200: { description: 'M3U playlist', content: { 'audio/x-mpegurl': { schema: Type.String() } } } } } },
    async (req, reply) => {
      const text = await service.playlist(deps, req.query, req.ip, requestOrigin(req));
      reply.type('audio/x-mpegurl; charset=utf-8').header('Content-Disposition', 'attachment; filename="playlist.m3u"').header('Cache-Control', 'no-store').header('Vary', 'Accept-Encoding');
      if (typeof text === 'string' && acceptsGzip(req.headers['accept-encoding'])) return raw(reply.header('Content-Encoding', 'gzip'), await gzipFast(text, FAST));
      return raw(reply, text);
    },
  );
}
