import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import * as service from './service.ts';

// Self-service trials (docs/trials.md): the signed-in account's trial page settings, and the public
// page's two routes (no session).

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Slug = Type.String({ minLength: 3, maxLength: 40, pattern: '^[a-z0-9-]{3,40}$', description: 'lowercase letters, digits and hyphens; the page is /teste/<slug>' });
const Settings = Type.Object(
  {
    enabled: Type.Boolean(),
    slug: Nullable(Type.String()),
    package_id: Nullable(Type.Integer({ description: 'the trial package the page gives' })),
    per_day: Type.Integer({ description: 'at most this many trials in any 24 hours' }),
    message: Nullable(Type.String({ description: 'shown on the page and at the top of the WhatsApp message' })),
    public_url: Nullable(Type.String({ description: 'the public page, /teste/<slug>' })),
    whatsapp_ready: Type.Boolean({ description: "the account's WhatsApp gateway (Lembretes) is set up: the trials are sent through it" }),
  },
  { title: 'TrialPageSettings' },
);

const origin = (req: { protocol: string; host: string }) => `${req.protocol}://${req.host}`;

/** The signed-in account's trial page. API keys cannot call these (no scope). */
export function trialPageRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['trials'];
  r.get('/trial-page/settings', { schema: { tags, response: { 200: Settings } } }, (req) => service.getSettings(deps, req.user, origin(req)));
  r.put(
    '/trial-page/settings',
    {
      schema: {
        tags,
        errors: { 409: ['SLUG_TAKEN'] },
        body: Type.Object({
          enabled: Type.Optional(Type.Boolean({ description: 'on needs a slug, a trial package and the WhatsApp gateway (400 VALIDATION, reason REQUIRED_TO_ENABLE)' })),
          slug: Type.Optional(Nullable(Slug)),
          package_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'a trial package (400 VALIDATION UNKNOWN_CHOICE otherwise)' }))),
          per_day: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
          message: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
        }),
        response: { 200: Settings },
      },
    },
    (req) => service.putSettings(deps, req.user, req.body, origin(req)),
  );
}

/** The public trial page's routes: no panel session. */
export function publicTrialRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['trials'];
  r.get(
    '/public/trial-pages/:slug',
    {
      schema: {
        tags,
        security: [],
        errors: { 404: ['NOT_FOUND'], 503: ['NOT_CONFIGURED'] },
        params: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: {
          200: Type.Object(
            {
              slug: Type.String(),
              reseller_name: Type.String(),
              whatsapp: Nullable(Type.String({ description: "the reseller's WhatsApp, as they entered it" })),
              message: Nullable(Type.String()),
              package_name: Type.String(),
              duration: Type.Integer(),
              duration_in: Type.String({ description: 'hours, days, months or years' }),
            },
            { title: 'PublicTrialPage' },
          ),
        },
      },
    },
    (req) => service.publicPage(deps, req.params.slug),
  );
  r.post(
    '/public/trials',
    {
      schema: {
        tags,
        security: [],
        description:
          'A trial line for this WhatsApp number, sent to it by WhatsApp (credentials, playlist, the customer page); the answer holds none of it. Once per number per account in 30 days (409 TRIAL_ALREADY_USED); 3 per address and the page\'s per_day in any 24 hours (429 TRIAL_LIMIT, Retry-After); a message that cannot be sent creates nothing (502 UPSTREAM_ERROR).',
        errors: { 404: ['NOT_FOUND'], 409: ['TRIAL_ALREADY_USED'], 429: ['TRIAL_LIMIT'], 502: ['UPSTREAM_ERROR'], 503: ['NOT_CONFIGURED'] },
        body: Type.Object({ slug: Type.String({ minLength: 1, maxLength: 100 }), whatsapp: Type.String({ minLength: 1, maxLength: 40 }) }),
        response: { 202: Type.Object({ status: Type.Literal('sent') }) },
      },
    },
    async (req, reply) => {
      const answer = await service.requestTrial(deps, req.body, req.ip);
      return reply.status(202).send(answer);
    },
  );
}
