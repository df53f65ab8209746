import { Readable } from 'node:stream';
import { keysetRows } from '../../db/keyset.ts';
import type { Tx } from '../../db/tx.ts';
import type { CatalogueKind } from '../../db/types.ts';
import * as repo from './repo.ts';

/** Rows per query while a listing or playlist streams out. */
const BATCH = 1000;

/** Every stream of a kind the bouquets give, in id order, one batch in memory at a time. */
export function entitledStreams(db: Tx, bouquets: number[], kind: CatalogueKind, categoryId?: number): AsyncGenerator<repo.PlayerStream> {
  return keysetRows((last, limit) => repo.streamsAfter(db, bouquets, kind, categoryId, last, limit), BATCH);
}

/** The whole text of chunks written one after another (a list or playlist to keep). */
export async function collectText(chunks: AsyncIterable<string | Buffer>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

/**
 * A JSON array written as rows arrive: sent as it comes when the list cache is off (a catalogue of
 * 100,000 titles then never sits in memory whole), collected once per catalogue version when it is
 * on (list-cache.ts). Rows are joined 500 to a chunk (one chunk per row would cost more than the query).
 */
export function jsonArray<R>(rows: AsyncIterable<R>, shape: (row: R, num: number) => unknown): Readable {
  async function* chunks() {
    yield '[';
    let num = 0;
    let batch: string[] = [];
    for await (const row of rows) {
      batch.push(JSON.stringify(shape(row, ++num)));
      if (batch.length === 500) {
        yield (num > 500 ? ',' : '') + batch.join(',');
        batch = [];
      }
    }
    if (batch.length) yield (num > batch.length ? ',' : '') + batch.join(',');
    yield ']';
  }
  return Readable.from(chunks(), { objectMode: false });
}
