import type { Tx } from '../../db/tx.ts';

export const listBouquets = (db: Tx) => db.selectFrom('bouquets').selectAll().orderBy('id').execute();

export const findBouquet = (db: Tx, id: number) =>
  db.selectFrom('bouquets').selectAll().where('id', '=', id).executeTakeFirst();

export async function countExisting(db: Tx, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const row = await db
    .selectFrom('bouquets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertBouquet(db: Tx, bouquet_name: string) {
  return db.insertInto('bouquets').values({ bouquet_name }).returningAll().executeTakeFirstOrThrow();
}

export async function updateBouquet(db: Tx, id: number, bouquet_name: string) {
  return db.updateTable('bouquets').set({ bouquet_name }).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteBouquet(db: Tx, id: number) {
  const res = await db.deleteFrom('bouquets').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Packages keep bouquet ids as a JSON text array; the packages table is small, so a LIKE is fine. */
export async function usedByPackages(db: Tx, id: number): Promise<boolean> {
  const row = await db.selectFrom('packages').select('id').where('bouquets', 'like', `%"${id}"%`).limit(1).executeTakeFirst();
  return row !== undefined;
}
