import type { Tx } from '../../db/tx.ts';
import type { Package } from '../../db/types.ts';
import { type Order, type PageCursor, paginate } from '../../db/paginate.ts';
import type { DurationUnit } from './schemas.ts';

// Units are written only through the body schema's enum.
export const toPackageOut = (p: Package) => ({
  ...p,
  official_duration_in: p.official_duration_in as DurationUnit,
  trial_duration_in: p.trial_duration_in as DurationUnit,
  bouquets: JSON.parse(p.bouquets) as string[],
});

export async function pagePackages(db: Tx, opts: { page?: number; per?: number; order: Order; cursor?: PageCursor }) {
  const res = await paginate<Package>(db.selectFrom('packages'), (q) => q.selectAll(), { ...opts, db, tiebreak: 'id' });
  return { ...res, data: res.data.map(toPackageOut) };
}

export async function allPackages(db: Tx) {
  return (await db.selectFrom('packages').selectAll().orderBy('id').execute()).map(toPackageOut);
}

const PACKAGE_COLUMNS = [
  'id',
  'package_name',
  'is_trial',
  'is_official',
  'max_connections',
  'official_credits',
  'official_duration',
  'official_duration_in',
  'trial_credits',
  'trial_duration',
  'trial_duration_in',
  'bouquets',
] as const;

export async function findPackage(db: Tx, id: number) {
  const row = await db.selectFrom('packages').select(PACKAGE_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toPackageOut(row);
}

export async function insertPackage(db: Tx, values: Omit<Package, 'id'>) {
  return toPackageOut(await db.insertInto('packages').values(values).returningAll().executeTakeFirstOrThrow());
}

export async function updatePackage(db: Tx, id: number, values: Partial<Omit<Package, 'id'>>) {
  const row = await db.updateTable('packages').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  return row && toPackageOut(row);
}
