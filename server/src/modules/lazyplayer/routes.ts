import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { requestOrigin } from '../../http/origin.ts';
import { IdParams, idempotencyKey } from '../../http/schemas.ts';
import * as service from './service.ts';

const Body = Type.Object({ mac: Type.String({ maxLength: 40 }) });
const Answer = Type.Object({ total_charged: Type.Integer(), mac: Type.String() }, { title: 'LazyPlayerActivation' });

export function lazyPlayerRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post('/users/:id/activesmart', {
      schema: {
        tags: ['users'],
        params: IdParams,
        idempotencyKey: true,
        errors: {
          400: ['MAC_REQUIRED'],
          503: ['NOT_CONFIGURED'], 409: ['LAZY_PLAYER_WRONG_SYSTEM', 'LINE_INCOMPLETE', 'LINE_EXPIRED', 'INSUFFICIENT_CREDITS', 'LAZY_PLAYER_REFUSED', 'LAZY_PLAYER_FAILED', 'IN_PROGRESS'],
        },
        body: Body,
        response: { 200: Answer },
      },
    }, (req) =>
    service.activate(deps, req.user, req.params.id, req.body.mac, idempotencyKey(req), requestOrigin(req)),
  );
}
