import type { Tx } from '../../db/tx.ts';
import type { LazyPlayerActivationsTable } from '../../db/types.ts';

export type Activation = Omit<LazyPlayerActivationsTable, 'id'> & { id: number };

export async function insertActivation(db: Tx, row: Omit<Activation, 'id' | 'finished_at' | 'error'>): Promise<number> {
  const { id } = await db.insertInto('lazy_player_activations').values({ ...row, error: null, finished_at: null }).returning('id').executeTakeFirstOrThrow();
  return id;
}

export function findByKey(db: Tx, resellerId: number, key: string): Promise<Activation | undefined> {
  return db.selectFrom('lazy_player_activations').selectAll().where('reseller_id', '=', resellerId).where('idempotency_key', '=', key).executeTakeFirst();
}

export async function finishActivation(db: Tx, id: number, status: 'active' | 'failed', error: string | null, at: number): Promise<void> {
  await db.updateTable('lazy_player_activations').set({ status, error, finished_at: at }).where('id', '=', id).execute();
}
