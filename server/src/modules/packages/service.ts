import { type Tx, withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import { type Order, parseOrder, cursorOf } from '../../http/paging.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { assertBouquetIds } from '../bouquets/service.ts';
import { writeLog } from '../logs/service.ts';
import * as repo from './repo.ts';
import { PackageBody, type PackageInput, type PackageUpdate } from './schemas.ts';

/** The package list's sorts (public name -> column); its `order_by` schema is built from the keys. */
export const ORDER_FIELDS = { id: 'id', package_name: 'package_name', is_trial: 'is_trial', is_official: 'is_official' };
const DEFAULT_ORDER: Order = { column: 'id', direction: 'asc' };

export function list({ database }: Deps, q: { page?: number; per?: number; order_by?: string; after?: string; before?: string }) {
  return repo.pagePackages(database.db, { page: q.page, per: q.per, order: parseOrder(q.order_by, ORDER_FIELDS, DEFAULT_ORDER), cursor: cursorOf(q) });
}

/** Every package, for the reference data of the web app. */
export const all = ({ database }: Deps) => repo.allPackages(database.db);

/** One package, read inside the caller's transaction (line creation and renewal). */
export const findPackage = (db: Tx, id: number) => repo.findPackage(db, id);

export async function get({ database }: Deps, id: number) {
  const row = await repo.findPackage(database.db, id);
  if (!row) throw appError('NOT_FOUND', { params: { what: 'Package' } });
  return row;
}

/** Only the package's own fields reach the table: an extra body field (id, constructor...) is never written. */
function packageFields<T extends object>(input: T): T {
  return Object.fromEntries(Object.entries(input).filter(([k]) => Object.hasOwn(PackageBody.properties, k))) as T;
}

export async function create(deps: Deps, actor: AuthUser, input: PackageInput) {
  return withTx(deps.database, async (trx) => {
    const bouquets = await assertBouquetIds(trx, input.bouquets, 'bouquets');
    const row = await repo.insertPackage(trx, { ...packageFields(input), package_name: input.package_name.trim(), bouquets: JSON.stringify(bouquets) });
    await writeLog(trx, { type_log: 'admin', action: 'package_create', actor_id: actor.id, reseller_id: actor.id, value: row.package_name, value_int: row.id });
    return row;
  });
}

export async function update(deps: Deps, actor: AuthUser, id: number, input: PackageUpdate) {
  return withTx(deps.database, async (trx) => {
    const bouquets = await assertBouquetIds(trx, input.bouquets, 'bouquets');
    const row = await repo.updatePackage(trx, id, { ...packageFields(input), package_name: input.package_name.trim(), bouquets: JSON.stringify(bouquets) });
    if (!row) throw appError('NOT_FOUND', { params: { what: 'Package' } });
    await writeLog(trx, { type_log: 'admin', action: 'package_update', actor_id: actor.id, reseller_id: actor.id, value: row.package_name, value_int: id });
    return row;
  });
}
