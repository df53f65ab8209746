import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { CursorQuery, PageQuery, Paged, cursorOf } from '../../http/paging.ts';
import { idempotencyKey, SearchOptions } from '../../http/schemas.ts';
import * as credits from '../credits/service.ts';
import * as domains from '../domains/service.ts';
import { estimatePassword } from './passwords.ts';
import * as S from './schemas.ts';
import * as service from './service.ts';

export function resellerRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['resellers'];
  const params = S.IdParams;
  // Plain resellers have no sub-resellers: management is closed to them (403), and a route about
  // one reseller answers 404 as for anything out of scope. The service checks again.
  const managers = { roles: ['admin', 'master'] } as const;
  const managersOf = { roles: ['admin', 'master'], hideAs: 'Reseller' } as const;

  r.get('/resellers', { config: managers, schema: { tags, querystring: S.ListQuery, response: { 200: Paged(S.ResellerRow) } } }, (req) =>
    service.list(deps, req.user, req.query),
  );
  r.post('/resellers/select_search', { config: managers, schema: { tags, body: S.SearchBody, response: { 200: SearchOptions } } }, (req) => service.selectSearch(deps, req.user, req.body.search));
  // POST so the password never sits in a URL or an access log.
  r.post('/password-strength', { config: managers, schema: { tags, body: S.StrengthBody, response: { 200: S.StrengthAnswer } } }, (req) =>
    estimatePassword(req.body.password, req.body.user_inputs ?? [], req.body.lang === 'en-US' ? 'en' : 'pt'),
  );
  r.get('/resellers/:id', { schema: { tags, params, response: { 200: S.ResellerDetail } } }, (req) => service.get(deps, req.user, req.params.id));
  r.post('/resellers', { config: managers, schema: { tags, idempotencyKey: true, errors: { 400: ['WEAK_PASSWORD'], 409: ['USERNAME_TAKEN', 'INSUFFICIENT_CREDITS', 'CREDIT_LIMIT'] }, body: S.CreateBody, response: { 201: S.ResellerDetail } } }, async (req, reply) =>
    reply.status(201).send(await service.create(deps, req.user, req.body, idempotencyKey(req))),
  );
  r.put('/resellers/:id', { config: managersOf, schema: { tags, params, errors: { 400: ['WEAK_PASSWORD'], 409: ['USERNAME_TAKEN'] }, body: S.UpdateBody, response: { 200: S.ResellerDetail } } }, (req) =>
    service.update(deps, req.user, req.params.id, req.body),
  );
  r.post('/resellers/:id/block', { config: managersOf, schema: { tags, params, response: { 200: S.ResellerDetail } } }, (req) =>
    service.setStatus(deps, req.user, req.params.id, 0),
  );
  r.post('/resellers/:id/unblock', { config: managersOf, schema: { tags, params, response: { 200: S.ResellerDetail } } }, (req) =>
    service.setStatus(deps, req.user, req.params.id, 1),
  );
  r.post('/resellers/:id/to_master', { config: managersOf, schema: { tags, params, errors: { 409: ['ALREADY_MASTER', 'INSUFFICIENT_CREDITS'] }, response: { 200: S.ResellerDetail } } }, (req) =>
    service.toMaster(deps, req.user, req.params.id),
  );
  r.post('/resellers/:id/credits', { config: managersOf, schema: { tags, params, idempotencyKey: true, errors: { 409: ['INSUFFICIENT_CREDITS', 'CREDIT_LIMIT'] }, body: S.CreditsBody, response: { 200: S.ResellerDetail } } }, async (req, reply) => {
    const outcome = await service.changeCredits(deps, req.user, req.params.id, req.body.value, idempotencyKey(req));
    return reply.status(200).send(outcome.body as Awaited<ReturnType<typeof service.get>>);
  });
  r.delete('/resellers/:id', { config: { roles: ['admin'] }, schema: { tags, params, errors: { 409: ['CREDIT_LIMIT'] }, body: S.DeleteBody, response: { 200: S.DeactivateResult } } }, (req) =>
    service.deactivate(deps, req.user, req.params.id, req.body.target_id),
  );
  r.get('/resellers/:id/ledger', { schema: { tags, params, querystring: Type.Object({ page: PageQuery.page, per: PageQuery.per, ...CursorQuery() }), response: { 200: Paged(S.LedgerRow) } } }, (req) =>
    credits.history(deps, req.user, req.params.id, req.query.page, req.query.per, cursorOf(req.query)),
  );
  r.get('/resellers/:id/domains', { schema: { tags, params, response: { 200: Type.Object({ data: Type.Array(S.DomainRow) }) } } }, (req) =>
    domains.list(deps, req.user, req.params.id),
  );
  r.put('/resellers/:id/add_domain', { config: managersOf, schema: { tags, params, body: S.DomainBody, response: { 201: S.DomainRow } } }, async (req, reply) =>
    reply.status(201).send(await domains.add(deps, req.user, req.params.id, req.body.dns_reseller)),
  );
}
