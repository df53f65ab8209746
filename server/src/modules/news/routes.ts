import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { IdParams } from '../../http/schemas.ts';
import { writeLog } from '../logs/repo.ts';

const NewsItem = Type.Object({ id: Type.Integer(), title: Type.String(), body: Type.String(), level: Type.Integer(), status: Type.Integer() });
const NewsBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  body: Type.String({ minLength: 1, maxLength: 10_000 }),
  level: Type.Integer({ minimum: 0, maximum: 10 }),
  status: Type.Integer({ minimum: 0, maximum: 1 }),
});

/** News: item 1 is the dashboard notice, item 2 shows in the short-link modal. Text only, never HTML. */
export function newsRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['news'];
  r.get('/news', { schema: { tags, response: { 200: Type.Object({ data: Type.Array(NewsItem) }) } } }, async (req) => {
    let q = deps.database.db.selectFrom('news').selectAll().orderBy('id');
    if (req.user.type !== 'admin') q = q.where('status', '=', 1);
    return { data: await q.execute() };
  });
  r.put(
    '/news/:id',
    { config: { roles: ['admin'] }, schema: { tags, params: IdParams, body: NewsBody, response: { 200: NewsItem } } },
    async (req) => {
      const actor = req.user;
      return withTx(deps.database, async (trx) => {
        const { title, body, level, status } = req.body; // never an extra body field (id...)
        const row = await trx.updateTable('news').set({ title, body, level, status }).where('id', '=', req.params.id).returningAll().executeTakeFirst();
        if (!row) throw notFound('News item');
        await writeLog(trx, { type_log: 'admin', action: 'news_update', actor_id: actor.id, reseller_id: actor.id, value: req.body.title, value_int: req.params.id });
        return row;
      });
    },
  );
}
