import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError, validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { writeLog } from '../logs/service.ts';
import * as items from './items-repo.ts';
import * as repo from './repo.ts';

/** Every bouquet with how many categories and single streams it holds. */
export async function list({ database }: Deps) {
  const [rows, counts] = await Promise.all([repo.listBouquets(database.db), items.itemCounts(database.db)]);
  const byId = new Map(counts.map((c) => [c.bouquet_id, c]));
  return rows.map((b) => ({ ...b, categories_count: Number(byId.get(b.id)?.categories ?? 0), streams_count: Number(byId.get(b.id)?.streams ?? 0) }));
}

/** One bouquet with the ids of its categories and single streams. */
export async function get({ database }: Deps, id: number) {
  const row = await repo.findBouquet(database.db, id);
  if (!row) throw appError('NOT_FOUND', { params: { what: 'Bouquet' } });
  return { ...row, ...(await items.itemsOf(database.db, id)) };
}

/** The catalogue a bouquet gives its lines: whole categories and single streams (ids must exist). */
export interface Contents {
  categories?: number[];
  streams?: number[];
}

/** Bouquet ids arrive as strings (spec: JSON array of id strings); all must exist, at least one. */
export async function assertBouquetIds(db: import('../../db/tx.ts').Tx, ids: string[], field: string): Promise<string[]> {
  if (ids.length === 0) throw appError('BOUQUET_REQUIRED', { field });
  if (ids.some((id) => !/^[1-9][0-9]{0,9}$/.test(id) || Number(id) > 2147483647)) {
    throw validation(field, 'bouquet ids must be positive integers');
  }
  const numbers = [...new Set(ids.map(Number))];
  if ((await repo.countExisting(db, numbers)) !== numbers.length) throw validation(field, 'unknown bouquet id');
  return numbers.map(String);
}

export async function create(deps: Deps, actor: AuthUser, name: string) {
  return withTx(deps.database, async (trx) => {
    const row = await repo.insertBouquet(trx, name);
    await writeLog(trx, { type_log: 'admin', action: 'bouquet_create', actor_id: actor.id, reseller_id: actor.id, value: name });
    return row;
  });
}

export async function update(deps: Deps, actor: AuthUser, id: number, name: string, contents: Contents = {}) {
  return withTx(deps.database, async (trx) => {
    const row = await repo.updateBouquet(trx, id, name);
    if (!row) throw appError('NOT_FOUND', { params: { what: 'Bouquet' } });
    const parts = [['categories', 'category_id', contents.categories], ['streams', 'stream_id', contents.streams]] as const;
    for (const [field, column, ids] of parts) {
      if (ids === undefined) continue;
      const unique = [...new Set(ids)];
      if ((await items.countExistingIn(trx, field, unique)) !== unique.length) throw validation(field, `unknown ${field === 'categories' ? 'category' : 'stream'} id`);
      await items.replaceItems(trx, id, column, unique);
    }
    const changed = ['name', ...parts.filter((p) => p[2] !== undefined).map((p) => `${p[0]} ${p[2]?.length}`)].join(', ');
    await writeLog(trx, { type_log: 'admin', action: 'bouquet_update', actor_id: actor.id, reseller_id: actor.id, value: `${name} (${changed})`.slice(0, 500), value_int: id });
    return { ...row, ...(await items.itemsOf(trx, id)) };
  });
}

export async function remove(deps: Deps, actor: AuthUser, id: number) {
  return withTx(deps.database, async (trx) => {
    if (!(await repo.findBouquet(trx, id))) throw appError('NOT_FOUND', { params: { what: 'Bouquet' } });
    if (await repo.usedByPackages(trx, id)) throw appError('BOUQUET_IN_USE');
    await repo.deleteBouquet(trx, id);
    await writeLog(trx, { type_log: 'admin', action: 'bouquet_delete', actor_id: actor.id, reseller_id: actor.id, value_int: id });
  });
}
