import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import * as service from './service.ts';

const Scope = Type.Union(
  [Type.Literal('lines:read'), Type.Literal('lines:write'), Type.Literal('credits:read')],
  { description: '`lines:read` lists and reads lines and packages; `lines:write` creates, renews, extends, adds screens, trials, blocks and unblocks; `credits:read` reads the balance' },
);
const Key = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    scopes: Type.Array(Scope),
    allowed_ips: Type.Array(Type.String(), { description: 'addresses and CIDR networks the key may be used from; empty: any' }),
    created_at: Type.Integer(),
    expires_at: Type.Union([Type.Integer(), Type.Null()]),
    revoked_at: Type.Union([Type.Integer(), Type.Null()]),
    last_used_at: Type.Union([Type.Integer(), Type.Null()]),
    last_used_ip: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'ApiKey' },
);
const Body = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  scopes: Type.Array(Scope, { minItems: 1, maxItems: 3, uniqueItems: true }),
  allowed_ips: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20 })),
  expires_at: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 4_102_444_800, description: 'unix seconds' }), Type.Null()])),
});
const Created = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scopes: Type.Array(Scope),
  allowed_ips: Type.Array(Type.String()),
  expires_at: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.Integer(),
  key: Type.String({ description: 'rk_live_...: shown this once; send it as `Authorization: Bearer <key>`' }),
});

/** The signed-in account's API keys. Keys cannot call these (no scope): only a person manages keys. */
export function apiKeyRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['api-keys'];
  r.get('/api-keys', { schema: { tags, response: { 200: Type.Object({ data: Type.Array(Key) }) } } }, (req) => service.list(deps, req.user));
  r.post('/api-keys', { schema: { tags, errors: { 409: ['API_KEY_LIMIT'] }, body: Body, response: { 201: Created } } }, async (req, reply) => reply.status(201).send(await service.create(deps, req.user, req.body)));
  r.delete('/api-keys/:id', { schema: { tags, params: IdParams, response: { 204: Type.Null() } } }, async (req, reply) => {
    await service.revoke(deps, req.user, req.params.id);
    return reply.status(204).send(null);
  });
}
