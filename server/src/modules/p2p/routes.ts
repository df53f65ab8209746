import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { Paged } from '../../http/paging.ts';
import { idempotencyKey } from '../../http/schemas.ts';
import * as S from './schemas.ts';
import * as service from './service.ts';

export function p2pRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['p2p'];
  const params = S.IdParams;
  const one = { 200: S.P2pRow };

  r.get('/p2p/users', { schema: { tags, querystring: S.ListQuery, response: { 200: Paged(S.P2pRow) } } }, (req) => service.list(deps, req.user, req.query as never));
  r.get('/p2p/users/online', { schema: { tags, errors: { 502: ['UPSTREAM_ERROR'], 503: ['NOT_CONFIGURED'] }, response: { 200: S.OnlineAnswer } } }, (req) => service.online(deps, req.user));
  r.post('/p2p/users/select_search', { schema: { tags, body: S.SearchBody, response: { 200: S.SearchAnswer } } }, (req) =>
    service.selectSearch(deps, req.user, req.body.search),
  );
  r.get('/p2p/users/:id', { schema: { tags, params, response: one } }, (req) => service.get(deps, req.user, req.params.id));
  r.post('/p2p/users', { schema: { tags, idempotencyKey: true, errors: { 409: ['USERNAME_TAKEN', 'INSUFFICIENT_CREDITS'], 503: ['NOT_CONFIGURED'] }, body: S.CreateBody, response: { 201: S.P2pRow } } }, async (req, reply) =>
    reply.status(201).send(await service.create(deps, req.user, req.body, idempotencyKey(req))),
  );
  r.post('/p2p/test_users', { schema: { tags, errors: { 409: ['USERNAME_TAKEN', 'TRIAL_LIMIT_REACHED'], 503: ['NOT_CONFIGURED'] }, body: S.TrialBody, response: { 201: S.P2pRow } } }, async (req, reply) =>
    reply.status(201).send(await service.createTrial(deps, req.user, req.body)),
  );
  r.put('/p2p/users/:id', { schema: { tags, params, body: S.UpdateBody, response: one } }, (req) => service.update(deps, req.user, req.params.id, req.body));
  r.delete('/p2p/users/:id', { schema: { tags, params, response: { 204: Type.Null() } } }, async (req, reply) => {
    await service.remove(deps, req.user, req.params.id);
    return reply.status(204).send(null);
  });
  r.post('/p2p/users/:id/block', { schema: { tags, params, response: one } }, (req) => service.setStatus(deps, req.user, req.params.id, 0));
  r.post('/p2p/users/:id/unblock', { schema: { tags, params, response: one } }, (req) => service.setStatus(deps, req.user, req.params.id, 1));
  r.post('/p2p/users/:id/renew', { schema: { tags, params, idempotencyKey: true, errors: { 503: ['NOT_CONFIGURED'] }, body: S.RenewBody, response: one } }, (req) =>
    service.renew(deps, req.user, req.params.id, req.body.months, idempotencyKey(req)),
  );

  // The old P2P panel.
  r.post('/p2p/attach_login', { schema: { tags, errors: { 502: ['UPSTREAM_ERROR'], 503: ['NOT_CONFIGURED'] }, body: S.OldLoginBody, response: { 200: S.AttachAnswer } } }, (req) => service.attachLogin(deps, req.user, req.body));
  r.post('/p2p/migrate_reseller', { schema: { tags, idempotencyKey: true, errors: { 400: ['OLD_LOGIN_FAILED'], 409: ['ALREADY_IMPORTED', 'CREDIT_LIMIT'], 502: ['UPSTREAM_ERROR'], 503: ['NOT_CONFIGURED'] }, body: S.OldLoginBody, response: { 200: S.MigrateResellerAnswer } } }, (req) =>
    service.migrateReseller(deps, req.user, req.body, idempotencyKey(req)),
  );
  r.get('/p2p/import_preview', { schema: { tags, errors: { 409: ['NOT_ATTACHED'], 502: ['UPSTREAM_ERROR'], 503: ['NOT_CONFIGURED'] }, response: { 200: S.ImportPreview } } }, (req) => service.importPreview(deps, req.user));
  r.post('/p2p/migrate_clients', { schema: { tags, errors: { 409: ['NOT_ATTACHED', 'IMPORT_CONFLICTS', 'USERNAME_TAKEN'], 502: ['UPSTREAM_ERROR'], 503: ['NOT_CONFIGURED'] }, response: { 200: S.MigrateClientsAnswer } } }, (req) => service.migrateClients(deps, req.user));

  r.get('/admin/p2p/outbox', { config: { roles: ['admin'] }, schema: { tags, response: { 200: S.OutboxStatus } } }, () => service.outboxStatus(deps));
}
