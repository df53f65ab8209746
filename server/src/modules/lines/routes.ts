import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { validation } from '../../http/errors.ts';
import { Paged } from '../../http/paging.ts';
import { idempotencyKey, SearchOptions } from '../../http/schemas.ts';
import * as S from './schemas.ts';
import * as service from './service.ts';

export function lineRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['users'];
  const params = S.IdParams;
  const one = { 200: S.LineRow };

  r.get('/users', { schema: { tags, scope: 'lines:read', querystring: S.ListQuery, response: { 200: Paged(S.LineRow) } } }, (req) =>
    service.list(deps, req.user, req.query as never),
  );
  r.get('/users/expiring', { schema: { tags, scope: 'lines:read', querystring: S.ExpiringQuery, response: { 200: Paged(S.LineRow) } } }, (req) =>
    service.expiring(deps, req.user, req.query),
  );
  r.post('/users/select_search', { schema: { tags, body: S.SearchBody, response: { 200: SearchOptions } } }, (req) => service.selectSearch(deps, req.user, req.body.search));
  r.get('/users/:id', { schema: { tags, scope: 'lines:read', params, response: one } }, (req) => service.get(deps, req.user, req.params.id));
  r.post('/users', { schema: { tags, scope: 'lines:write', idempotencyKey: true, errors: { 400: ['BOUQUET_REQUIRED'], 409: ['USERNAME_TAKEN', 'INSUFFICIENT_CREDITS'] }, body: S.CreateBody, response: { 201: S.LineRow } } }, async (req, reply) =>
    reply.status(201).send(await service.create(deps, req.user, req.body, idempotencyKey(req))),
  );
  r.post('/trial_users', { schema: { tags, scope: 'lines:write', errors: { 409: ['USERNAME_TAKEN', 'TRIAL_LIMIT_REACHED'] }, body: S.TrialBody, response: { 201: S.LineRow } } }, async (req, reply) =>
    reply.status(201).send(await service.createTrial(deps, req.user, req.body)),
  );
  r.put('/users/:id', { schema: { tags, params, errors: { 400: ['BOUQUET_REQUIRED'] }, body: S.UpdateBody, response: one } }, (req) => service.update(deps, req.user, req.params.id, req.body));
  r.delete('/users/:id', { schema: { tags, params, response: { 204: Type.Null() } } }, async (req, reply) => {
    await service.remove(deps, req.user, req.params.id);
    return reply.status(204).send(null);
  });
  r.post('/users/:id/renew', { schema: { tags, scope: 'lines:write', params, idempotencyKey: true, errors: { 409: ['INSUFFICIENT_CREDITS', 'TRIAL_NOT_ALLOWED'] }, body: S.RenewBody, response: one } }, (req) => {
    const { package_id, months, mounth } = req.body;
    const flash = months === 1 || mounth === 1;
    if ((package_id === undefined) === !flash) throw validation('package_id', 'send either package_id or months: 1');
    return service.renew(deps, req.user, req.params.id, flash ? {} : { package_id }, idempotencyKey(req));
  });
  r.post('/users/:id/extenddays', { schema: { tags, scope: 'lines:write', params, errors: { 409: ['TRIAL_NOT_ALLOWED', 'EXTEND_LIMIT_REACHED'] }, body: S.ExtendBody, response: one } }, (req) =>
    service.extendDays(deps, req.user, req.params.id, req.body.days),
  );
  r.post('/users/:id/screens', { schema: { tags, scope: 'lines:write', params, idempotencyKey: true, errors: { 409: ['INSUFFICIENT_CREDITS', 'TRIAL_NOT_ALLOWED'] }, body: S.ScreensBody, response: one } }, (req) =>
    service.screens(deps, req.user, req.params.id, req.body.amount, idempotencyKey(req)),
  );
  r.post('/users/:id/block', { schema: { tags, scope: 'lines:write', params, response: one } }, (req) => service.setEnabled(deps, req.user, req.params.id, 0));
  r.post('/users/:id/unblock', { schema: { tags, scope: 'lines:write', params, response: one } }, (req) => service.setEnabled(deps, req.user, req.params.id, 1));
  r.post('/users/:id/resync_p2p', { schema: { tags, params, errors: { 409: ['NOT_P2P'] }, response: one } }, (req) => service.resyncP2p(deps, req.user, req.params.id));
  r.post('/users/:id/change_system', { schema: { tags, params, errors: { 409: ['LINE_BLOCKED'] }, body: S.SystemBody, response: one } }, (req) =>
    service.changeSystem(deps, req.user, req.params.id, req.body.system_id),
  );
}
