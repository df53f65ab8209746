import type { Tx } from '../../db/tx.ts';

const PUBLIC = ['id', 'name', 'url', 'created_at'] as const;

export const listServers = (db: Tx) => db.selectFrom('servers').select(PUBLIC).orderBy('id').execute();

export const insertServer = (db: Tx, values: { name: string; url: string; key_hash: string; created_by: number; created_at: number }) =>
  db.insertInto('servers').values(values).returning(PUBLIC).executeTakeFirstOrThrow();

export async function deleteServer(db: Tx, id: number): Promise<boolean> {
  const res = await db.deleteFrom('servers').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export const serverByKeyHash = (db: Tx, keyHash: string) => db.selectFrom('servers').select(['id', 'name']).where('key_hash', '=', keyHash).executeTakeFirst();

export const serverById = (db: Tx, id: number) => db.selectFrom('servers').select(['id', 'name', 'url']).where('id', '=', id).executeTakeFirst();
