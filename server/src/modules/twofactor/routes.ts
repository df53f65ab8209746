import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import * as service from './service.ts';

const tags = ['two-factor'];
const Code = Type.String({ minLength: 1, maxLength: 40, description: '6-digit code from the app, or a recovery code' });

export const SessionUser = Type.Object(
  { id: Type.Integer(), username: Type.String(), type: Type.Union([Type.Literal('admin'), Type.Literal('master'), Type.Literal('reseller')]), credits: Type.Integer() },
  { title: 'SessionUser' },
);

export const SignedIn = Type.Object(
  {
    token: Type.String(),
    user: SessionUser,
    device_token: Type.Optional(Type.String({ description: 'keep it on this browser and send it with later sign-ins' })),
  },
  { title: 'SignedIn' },
);

/** Sign-in answer when a second step is needed: send `challenge` with a code to /auth/sign-in/2fa. */
export const TwoFactorChallenge = Type.Object(
  {
    two_factor_required: Type.Literal(true),
    challenge: Type.String(),
    expires_in: Type.Integer({ description: 'seconds' }),
  },
  { title: 'TwoFactorChallenge' },
);

/** The second sign-in step (no session yet). */
export function publicTwoFactorRoutes(app: FastifyInstance, deps: Deps): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/auth/sign-in/2fa',
    {
      schema: {
        tags: ['auth'],
        security: [],
        errors: { 401: ['TWO_FACTOR_CHALLENGE_EXPIRED', 'INVALID_2FA_CODE'], 429: ['RATE_LIMITED'] },
        body: Type.Object({
          challenge: Type.String({ minLength: 1, maxLength: 200 }),
          code: Code,
          device_token: Type.Optional(Type.String({ maxLength: 200, description: 'as for /auth/sign-in' })),
        }),
        response: { 200: SignedIn },
      },
    },
    (req) => service.completeSignIn(deps, { ...req.body, ip: req.ip, userAgent: req.headers['user-agent'] }),
  );
}

export function twoFactorRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/profile/2fa',
    {
      schema: {
        tags,
        response: {
          200: Type.Object(
            {
              enabled: Type.Boolean(),
              recovery_codes_left: Type.Integer(),
              required: Type.Boolean({ description: 'REQUIRE_ADMIN_2FA applies to this account' }),
            },
            { title: 'TwoFactorStatus' },
          ),
        },
      },
    },
    (req) => service.status(deps, req.user),
  );
  r.post(
    '/profile/2fa/setup',
    {
      schema: {
        tags,
        errors: { 409: ['TWO_FACTOR_ALREADY_ENABLED'] },
        response: {
          200: Type.Object({
            secret: Type.String({ description: 'base32, for typing into the app' }),
            otpauth_url: Type.String(),
            qr: Type.String({ description: 'data: URL of an SVG QR code of otpauth_url' }),
          }, { title: 'TwoFactorSetup' }),
        },
      },
    },
    (req) => service.setup(deps, req.user),
  );
  r.post(
    '/profile/2fa/enable',
    {
      schema: {
        tags,
        errors: { 400: ['INVALID_2FA_CODE'], 409: ['TWO_FACTOR_NOT_PENDING', 'TWO_FACTOR_ALREADY_ENABLED'] },
        body: Type.Object({ code: Code }),
        response: { 200: Type.Object({ recovery_codes: Type.Array(Type.String(), { description: 'shown once' }) }) },
      },
    },
    (req) => service.enable(deps, req.user, req.body.code),
  );
  r.post(
    '/profile/2fa/disable',
    {
      schema: {
        tags,
        errors: { 400: ['INVALID_PASSWORD', 'INVALID_2FA_CODE'], 409: ['TWO_FACTOR_NOT_ENABLED'], 429: ['RATE_LIMITED'] },
        body: Type.Object({ password: Type.String({ minLength: 1, maxLength: 200 }), code: Code }),
        response: { 204: Type.Null() },
      },
    },
    async (req, reply) => {
      await service.disable(deps, req.user, { ...req.body, ip: req.ip });
      return reply.status(204).send(null);
    },
  );
  r.post(
    '/resellers/:id/2fa/reset',
    {
      config: { roles: ['admin'] },
      schema: { tags, params: IdParams, errors: { 409: ['TWO_FACTOR_NOT_ENABLED'] }, response: { 200: Type.Object({ reset: Type.Boolean() }) } },
    },
    (req) => service.reset(deps, req.user, req.params.id),
  );
}
