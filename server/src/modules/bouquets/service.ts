import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { AppError, notFound, validation } from '../../http/errors.ts';
import type { AuthUser } from '../auth/service.ts';
import { writeLog } from '../logs/write.ts';
import * as repo from './repo.ts';

export const list = ({ database }: Deps) => repo.listBouquets(database.db);

/** Bouquet ids arrive as strings (spec: JSON array of id strings); all must exist, at least one. */
export async function assertBouquetIds(db: import('../../db/tx.ts').Tx, ids: string[], field: string): Promise<string[]> {
  if (ids.length === 0) throw new AppError(400, 'BOUQUET_REQUIRED', 'You must select at least 1 bouquet', field);
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

export async function update(deps: Deps, actor: AuthUser, id: number, name: string) {
  return withTx(deps.database, async (trx) => {
    const row = await repo.updateBouquet(trx, id, name);
    if (!row) throw notFound('Bouquet');
    await writeLog(trx, { type_log: 'admin', action: 'bouquet_update', actor_id: actor.id, reseller_id: actor.id, value: name, value_int: id });
    return row;
  });
}

export async function remove(deps: Deps, actor: AuthUser, id: number) {
  return withTx(deps.database, async (trx) => {
    if (!(await repo.findBouquet(trx, id))) throw notFound('Bouquet');
    if (await repo.usedByPackages(trx, id)) throw new AppError(409, 'BOUQUET_IN_USE', 'This bouquet is used by a package');
    await repo.deleteBouquet(trx, id);
    await writeLog(trx, { type_log: 'admin', action: 'bouquet_delete', actor_id: actor.id, reseller_id: actor.id, value_int: id });
  });
}
