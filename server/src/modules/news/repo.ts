import type { Tx } from '../../db/tx.ts';

export interface NewsFields {
  title: string;
  body: string;
  level: number;
  status: number;
}

export function listNews(db: Tx, onlyPublished: boolean) {
  let q = db.selectFrom('news').selectAll().orderBy('id');
  if (onlyPublished) q = q.where('status', '=', 1);
  return q.execute();
}

export function updateNews(db: Tx, id: number, fields: NewsFields) {
  return db.updateTable('news').set(fields).where('id', '=', id).returningAll().executeTakeFirst();
}
