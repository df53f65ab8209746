import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { requestOrigin } from '../../http/origin.ts';
import { IdParams } from '../../http/schemas.ts';
import { LINK_TYPES, linksOf, resolve, shorten } from './service.ts';

const Links = Type.Object(Object.fromEntries(LINK_TYPES.map((t) => [t, Type.String()])) as Record<(typeof LINK_TYPES)[number], ReturnType<typeof Type.String>>, {
  title: 'LineLinks',
});

export function shortlinkRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['users'];
  r.post(
    '/shorturl',
    {
      schema: {
        tags,
        errors: { 404: ['NOT_FOUND'] },
        body: Type.Object({
          url: Type.Optional(Type.String({ maxLength: 1000 })),
          user_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
          type: Type.Union(LINK_TYPES.map((t) => Type.Literal(t))),
        }),
        response: { 200: Type.Object({ url: Type.String(), original: Type.String() }, { title: 'ShortLink' }) },
      },
    },
    (req) => shorten(deps, req.user, req.body.user_id, req.body.type, requestOrigin(req)),
  );
  r.get('/users/:id/links', { schema: { tags, params: IdParams, response: { 200: Links } } }, (req) =>
    linksOf(deps, req.user, req.params.id, requestOrigin(req)),
  );
}

const REFUSALS = {
  not_found: { status: 404, code: 'NOT_FOUND', title: 'Link não encontrado', text: 'Este link não existe ou foi removido. Peça um novo link ao seu revendedor.' },
  blocked: { status: 403, code: 'LINE_BLOCKED', title: 'Acesso bloqueado', text: 'Esta assinatura está bloqueada. Fale com o seu revendedor.' },
  expired: { status: 403, code: 'LINE_EXPIRED', title: 'Assinatura vencida', text: 'Esta assinatura venceu. Fale com o seu revendedor para renovar.' },
  rate_limited: { status: 429, code: 'RATE_LIMITED', title: 'Muitas tentativas', text: 'Muitos links inválidos foram acessados deste endereço. Tente novamente mais tarde.' },
} as const;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** GET /s/{code}: public, outside /api. Refusals carry no line data: a small page or JSON. */
export function publicShortlinkRoute(app: FastifyInstance, deps: Deps): void {
  const schema = {
    tags: ['public'],
    summary: "Opens a line's short link: a redirect to its playlist",
    description: 'Refusals are a small Portuguese page for browsers (`Accept: text/html`), JSON otherwise.',
    security: [],
    params: Type.Object({ code: Type.String() }),
    response: { 302: Type.Null({ description: "Redirect (Location) to the playlist, built from the line's current data" }) },
    errors: { 403: ['LINE_BLOCKED', 'LINE_EXPIRED'], 404: ['NOT_FOUND'], 429: ['RATE_LIMITED'] } as const,
  };
  app.get<{ Params: { code: string } }>('/s/:code', { schema }, async (req, reply) => {
    const result = await resolve(deps, req.params.code, req.ip, requestOrigin(req));
    // The target holds the line's current password: no cache may keep it.
    reply.header('Cache-Control', 'no-store');
    if (result.kind === 'redirect') return reply.redirect(result.url, 302);
    const refusal = REFUSALS[result.kind];
    if (result.kind === 'rate_limited') {
      req.log.warn({ ip: req.ip }, 'short link look-ups refused: too many misses from this IP');
      reply.header('Retry-After', String(result.retryAfter));
    }
    reply.status(refusal.status);
    if (req.headers.accept?.includes('text/html')) {
      const title = escapeHtml(refusal.title);
      return reply
        .type('text/html; charset=utf-8')
        .send(`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${escapeHtml(refusal.text)}</p></body></html>`);
    }
    return reply.send({ statusCode: refusal.status, code: refusal.code, message: refusal.text });
  });
}
