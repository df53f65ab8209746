import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { profileFlags } from '../twofactor/service.ts';
import { SessionUser, SignedIn, TwoFactorChallenge } from '../twofactor/routes.ts';
import * as service from './service.ts';

export function publicAuthRoutes(app: FastifyInstance, deps: Deps): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/auth/sign-in',
    {
      schema: {
        tags: ['auth'],
        security: [],
        errors: { 401: ['INVALID_CREDENTIALS'], 429: ['RATE_LIMITED'] },
        body: Type.Object({
          username: Type.String({ minLength: 1, maxLength: 50 }),
          password: Type.String({ minLength: 1, maxLength: 200 }),
          remember_me: Type.Optional(Type.Boolean()),
          device_token: Type.Optional(Type.String({ maxLength: 200, description: 'from an earlier sign-in on this browser: skips the per-IP and per-account limits' })),
        }),
        response: { 200: Type.Union([SignedIn, TwoFactorChallenge]) },
      },
    },
    async (request) => {
      return service.signIn(deps, { ...request.body, ip: request.ip, userAgent: request.headers['user-agent'] });
    },
  );
}

export function authRoutes(app: FastifyInstance, deps: Deps): void {
  app.delete('/auth/sign-out', { schema: { tags: ['auth'], response: { 204: Type.Null() } } }, async (request, reply) => {
    await service.signOut(deps, request.user);
    return reply.status(204).send();
  });
  const ProfileOut = Type.Object(
    {
      ...SessionUser.properties,
      two_factor_enabled: Type.Boolean(),
      two_factor_required: Type.Boolean({ description: 'REQUIRE_ADMIN_2FA: enrol before anything else' }),
    },
    { title: 'Profile' },
  );
  app.get('/profile', { schema: { tags: ['auth'], scope: 'credits:read', response: { 200: ProfileOut } } }, async (request) => {
    const { id, username, type, credits } = request.user;
    return { id, username, type, credits, ...profileFlags(deps, request.user) };
  });
}
