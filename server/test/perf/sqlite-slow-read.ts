import { type Kysely, sql } from 'kysely';
import type { DB } from '../../src/db/types.ts';

/**
 * A read that takes the CPU for 2.5 to 5 seconds on this machine (a recursive count to 12 million):
 * well past the time other requests beside it take, even on a quiet machine, where 4 million
 * finished first. Shared by test/sqlite-readers.test.ts (what the requests beside it answer) and
 * test/perf/sqlite-readers-latency.test.ts (how fast they answer).
 */
export const SLOW_COUNT = 12_000_000;

export const slowRead = (db: Kysely<DB>) =>
  sql<{ n: number }>`WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ${sql.lit(SLOW_COUNT)}) SELECT count(*) AS n FROM c`.execute(db);
