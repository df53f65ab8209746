import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import * as service from './service.ts';

const Counter = Type.Integer();
const Dashboard = Type.Object({
  resellers: Counter,
  users: Counter,
  users_active: Counter,
  users_activep2p: Counter,
  users_activehttp: Counter,
  users_online_of_resellers: Counter,
  users_online: Counter,
  conections_online: Counter,
  users_new: Counter,
  users_trial: Counter,
  users_trialp2p: Counter,
  computed_at: Type.Integer(),
}, { title: 'Dashboard' });

export function dashboardRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['dashboard'];
  r.get('/dashboard', { schema: { tags, response: { 200: Dashboard } } }, async (req) => {
    const [lines, online] = await Promise.all([service.lineCards(deps, req.user), service.online(deps, req.user)]);
    return { ...lines, ...online };
  });
}
