import type { Tx } from '../../db/tx.ts';

const COLUMNS = ['id', 'dns_reseller', 'token_id', 'created_at'] as const;

export const listDomains = (db: Tx, resellerId: number) => db.selectFrom('reseller_domains').select(COLUMNS).where('reseller_id', '=', resellerId).orderBy('id').execute();

export const insertDomain = (db: Tx, values: { reseller_id: number; dns_reseller: string; token_id: string; created_by: number; created_at: number }) =>
  db.insertInto('reseller_domains').values(values).returning(COLUMNS).executeTakeFirstOrThrow();

export async function deleteDomains(db: Tx, resellerId: number): Promise<void> {
  await db.deleteFrom('reseller_domains').where('reseller_id', '=', resellerId).execute();
}

export async function newestDomain(db: Tx, resellerId: number): Promise<string | undefined> {
  const row = await db.selectFrom('reseller_domains').select('dns_reseller').where('reseller_id', '=', resellerId).orderBy('id', 'desc').executeTakeFirst();
  return row?.dns_reseller;
}
