import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { writeLog } from '../logs/service.ts';
import * as repo from './repo.ts';

/** Resellers see the published items only; admins every item. */
export async function list({ database }: Deps, actor: AuthUser) {
  return { data: await repo.listNews(database.db, actor.type !== 'admin') };
}

export function update(deps: Deps, actor: AuthUser, id: number, input: repo.NewsFields) {
  return withTx(deps.database, async (trx) => {
    const { title, body, level, status } = input; // never an extra body field (id...)
    const row = await repo.updateNews(trx, id, { title, body, level, status });
    if (!row) throw appError('NOT_FOUND', { params: { what: 'News item' } });
    await writeLog(trx, { type_log: 'admin', action: 'news_update', actor_id: actor.id, reseller_id: actor.id, value: title, value_int: id });
    return row;
  });
}
