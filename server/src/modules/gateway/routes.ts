import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import * as service from './service.ts';
import { countGatewayAuth } from '../../lib/counters.ts';

const Header = (description: string) => Type.Optional(Type.String({ description }));
const Headers = Type.Object({
  'x-edge-key': Header("the edge's key, from POST /api/admin/servers"),
  'x-original-uri': Header('what the client asked for: /live/{username}/{password}/{stream_id}.{ts|m3u8}, a segment under /live/{username}/{password}/{stream_id}/, or /movie/..., /series/...'),
  'x-real-ip': Header("the client's address"),
  'user-agent': Header("the client's user agent"),
});

/**
 * nginx `auth_request` (docs/integrations.md, "Edges"; docs/nginx-edge.conf): 204 allows, 403 refuses,
 * 401 means the edge itself is unknown. Nothing else: nginx turns any other status into a 500 for
 * its client. The reason of a refusal is in X-Refused-Reason (the edge's logs, never the player).
 */
export function gatewayRoutes(app: FastifyInstance, deps: Deps): void {
  app.get<{ Headers: Record<string, string | undefined> }>(
    '/gateway/auth',
    {
      // asked for every segment of every player: the edge's own access log has these requests
      logLevel: 'warn',
      schema: {
        tags: ['gateway'],
        security: [],
        onlyListedAnswers: true,
        headers: Headers,
        response: {
          204: { description: 'allowed; X-Stream-Source holds the stream source URL and, for a live stream, X-Segment-Link the signed query (e=..&t=..) the edge appends to the segment URLs of the playlist it serves', type: 'null' },
          401: { description: 'unknown edge key', type: 'null' },
          403: { description: 'refused (X-Refused-Reason)', type: 'null' },
        },
      },
    },
    async (req, reply) => {
      const header = (name: string) => (typeof req.headers[name] === 'string' ? req.headers[name] : undefined);
      const verdict = await service.authorize(deps, { key: header('x-edge-key'), uri: header('x-original-uri'), ip: header('x-real-ip'), userAgent: header('user-agent') });
      reply.header('Cache-Control', 'no-store');
      countGatewayAuth(verdict.allow ? 'allowed' : verdict.status === 401 ? 'unknown_edge' : 'refused');
      if (verdict.allow) {
        if (verdict.segmentLink) reply.header('X-Segment-Link', verdict.segmentLink);
        return reply.status(204).header('X-Stream-Source', verdict.source).send();
      }
      return reply.status(verdict.status).header('X-Refused-Reason', verdict.reason).send();
    },
  );
}
