import type { Tx } from '../../db/tx.ts';

// The old P2P panel: balances already imported (once per old account) and attached sign-ins.

export const findImport = (db: Tx, oldUsername: string) => db.selectFrom('p2p_imports').select(['id', 'reseller_id', 'created_at']).where('old_username', '=', oldUsername).executeTakeFirst();

export async function insertImport(db: Tx, row: { reseller_id: number; old_username: string; credits: number; created_at: number }): Promise<void> {
  await db.insertInto('p2p_imports').values(row).execute();
}

export const findOldLogin = (db: Tx, resellerId: number) => db.selectFrom('p2p_old_logins').selectAll().where('reseller_id', '=', resellerId).executeTakeFirst();

/** One attached old-panel sign-in per reseller: a new one replaces the last. */
export async function saveOldLogin(db: Tx, row: { reseller_id: number; old_username: string; token: string; created_at: number }): Promise<void> {
  await db.deleteFrom('p2p_old_logins').where('reseller_id', '=', row.reseller_id).execute();
  await db.insertInto('p2p_old_logins').values(row).execute();
}

export async function deleteOldLogin(db: Tx, resellerId: number): Promise<void> {
  await db.deleteFrom('p2p_old_logins').where('reseller_id', '=', resellerId).execute();
}
