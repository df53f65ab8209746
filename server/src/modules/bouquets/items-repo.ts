import { sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';

// What each bouquet holds: whole categories and single streams (bouquet_items, migration 015).

const CHUNK = 500;

export async function itemsOf(db: Tx, bouquetId: number): Promise<{ categories: number[]; streams: number[] }> {
  const rows = await db.selectFrom('bouquet_items').select(['category_id', 'stream_id']).where('bouquet_id', '=', bouquetId).execute();
  const ids = (pick: (r: (typeof rows)[number]) => number | null) => rows.map(pick).filter((v): v is number => v !== null).sort((a, b) => a - b);
  return { categories: ids((r) => r.category_id), streams: ids((r) => r.stream_id) };
}

/** Item counts per bouquet, for the list. */
export function itemCounts(db: Tx) {
  return db
    .selectFrom('bouquet_items')
    .select(['bouquet_id', sql<number>`count(category_id)`.as('categories'), sql<number>`count(stream_id)`.as('streams')])
    .groupBy('bouquet_id')
    .execute();
}

/** How many of `ids` exist in `table` (ids are unique). */
export async function countExistingIn(db: Tx, table: 'categories' | 'streams', ids: number[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const row = await db
      .selectFrom(table)
      .select(sql<number>`count(*)`.as('n'))
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .executeTakeFirst();
    n += Number(row?.n ?? 0);
  }
  return n;
}

/** Replaces the bouquet's categories or streams (the other kind of item stays). */
export async function replaceItems(db: Tx, bouquetId: number, column: 'category_id' | 'stream_id', ids: number[]): Promise<void> {
  await db.deleteFrom('bouquet_items').where('bouquet_id', '=', bouquetId).where(column, 'is not', null).execute();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = ids.slice(i, i + CHUNK).map((id) => ({ bouquet_id: bouquetId, category_id: column === 'category_id' ? id : null, stream_id: column === 'stream_id' ? id : null }));
    await db.insertInto('bouquet_items').values(rows).execute();
  }
}
