import type { Tx } from '../../db/tx.ts';

export const listGroups = (db: Tx) => db.selectFrom('groups').selectAll().orderBy('group_id').execute();

export const groupById = (db: Tx, groupId: number) => db.selectFrom('groups').selectAll().where('group_id', '=', groupId).executeTakeFirst();

export const firstGroupOfType = (db: Tx, type: 'admin' | 'master' | 'reseller') =>
  db.selectFrom('groups').selectAll().where('type', '=', type).orderBy('group_id').executeTakeFirstOrThrow();
