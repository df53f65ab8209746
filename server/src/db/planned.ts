import type { CompiledQuery } from 'kysely';
import { planOnceOnPostgres } from './connection.ts';
import type { Tx } from './tx.ts';

/**
 * The first row of a lookup by key, sent so PostgreSQL plans it once per connection (see
 * planOnceOnPostgres): on every spend and line view these lookups spent longer being planned
 * than run. Only for statements whose plan cannot depend on their values.
 */
export async function firstByKey<R>(db: Tx, query: CompiledQuery<R> | { compile(): CompiledQuery<R> }): Promise<R | undefined> {
  const compiled = 'compile' in query ? query.compile() : query;
  planOnceOnPostgres(compiled.sql);
  return (await db.executeQuery(compiled)).rows[0];
}
