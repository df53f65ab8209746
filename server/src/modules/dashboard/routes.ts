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

const ActivityDay = Type.Object(
  { date: Type.String({ description: 'YYYY-MM-DD in the caller\'s time zone' }), new_lines: Type.Integer(), credits_spent: Type.Integer() },
  { title: 'ActivityDay' },
);

export function dashboardRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['dashboard'];
  r.get('/dashboard', { schema: { tags, response: { 200: Dashboard } } }, async (req) => {
    const [lines, online] = await Promise.all([service.lineCards(deps, req.user), service.online(deps, req.user)]);
    return { ...lines, ...online };
  });
  r.get(
    '/dashboard/activity',
    {
      schema: {
        tags,
        querystring: Type.Object({ tz_offset: Type.Optional(Type.Integer({ minimum: -840, maximum: 840, default: 0 })) }),
        response: {
          200: Type.Object({ data: Type.Array(ActivityDay) }),
        },
      },
    },
    (req) => service.activity(deps, req.user, req.query.tz_offset ?? 0),
  );
}
