/**
 * Walks a query in id order, `batch` rows at a time (`where id > last`), yielding row by row. Only
 * one batch is ever in memory, and each batch is its own short query: no cursor or connection is
 * held between batches, so a long export never blocks other requests on SQLite's one connection.
 * Stopping the iteration (a client that hangs up) stops the queries.
 */
export async function* keysetRows<R extends { id: number }>(fetchAfter: (lastId: number, limit: number) => Promise<R[]>, batch = 1000): AsyncGenerator<R> {
  let last = 0;
  for (;;) {
    const rows = await fetchAfter(last, batch);
    yield* rows;
    if (rows.length < batch) return;
    last = rows[rows.length - 1].id;
  }
}

export async function* mapRows<A, B>(rows: AsyncIterable<A>, f: (row: A) => B): AsyncGenerator<B> {
  for await (const row of rows) yield f(row);
}
