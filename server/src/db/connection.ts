import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DB } from './types.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  close(): Promise<void>;
}

// int8 (counts, bigint ids, epoch ms) would otherwise arrive as strings from pg.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** Prepared statements kept per SQL text; enough for every distinct query the server sends. */
const STATEMENT_CACHE = 500;

/**
 * Kysely's SQLite driver prepares every query again (~40 µs each, 3-6 per request, measured in
 * PERFORMANCE-NOTES.md); this keeps the statements, least recently used out first. A statement
 * still iterating (Kysely's `.stream()`) is busy: the caller then gets a fresh one.
 */
function keepPreparedStatements(sqlite: SqliteDatabase.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SqliteDatabase.Statement>();
  (sqlite as { prepare: (source: string) => SqliteDatabase.Statement }).prepare = (source: string) => {
    const kept = cache.get(source);
    if (kept && !kept.busy) {
      cache.delete(source);
      cache.set(source, kept);
      return kept;
    }
    const fresh = prepare(source);
    if (kept) return fresh;
    cache.set(source, fresh);
    if (cache.size > STATEMENT_CACHE) cache.delete(cache.keys().next().value as string);
    return fresh;
  };
}

/**
 * PostgreSQL: statements sent as named prepared statements, so each connection plans them once
 * (after five runs PostgreSQL keeps a generic plan). Kysely sends every statement unnamed, planned
 * again each time: the session check's 4-table join took 0.4 ms of planning on every signed-in
 * request (issue 13). Only fixed statements whose best plan does not depend on their values (a
 * lookup by a unique key) belong here; a list's plan does depend on them.
 */
const plannedOnce = new Map<string, string>();
/**
 * Each text is prepared on every pooled connection and kept there, so their number stays small:
 * past this bound, further texts run unnamed as before (a caller whose text varies, say with an
 * IN list, does not belong here). Named statements need a session per client: not behind
 * PgBouncer in transaction mode. They name their columns (no `*`), so adding a column to a live
 * database does not break them ("cached plan must not change result type").
 */
const PLANNED_ONCE_MAX = 64;
export function planOnceOnPostgres(sqlText: string): void {
  if (!plannedOnce.has(sqlText) && plannedOnce.size < PLANNED_ONCE_MAX) plannedOnce.set(sqlText, `planned_${plannedOnce.size + 1}`);
}

const NAMED = Symbol('named statements');
type NamedClient = pg.PoolClient & { [NAMED]?: true };

function namePlannedStatements(client: NamedClient): pg.PoolClient {
  if (client[NAMED]) return client;
  client[NAMED] = true;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown) => {
    const name = typeof text === 'string' ? plannedOnce.get(text) : undefined;
    return name ? query({ name, text, values }) : values === undefined ? query(text) : query(text, values);
  };
  return client;
}

const sqliteHandles = new WeakMap<object, SqliteDatabase.Database>();

/**
 * PostgreSQL: one connection of its own that sends each statement without waiting for the answers
 * to earlier ones (pg's pipeline mode), for withTx's shared transactions (db/tx.ts). A transaction
 * pins the connection: every statement of it goes to that connection, even a dead one (they then
 * fail), never to a new connection where it would run outside the transaction.
 */
export interface Lane {
  db: Kysely<DB>;
  /** the connection every statement goes to until `unpin` (connecting first when there is none) */
  pin(): Promise<pg.ClientBase>;
  unpin(): void;
  /** whether the next `pin` replaces the connection (see TRANSACTIONS_PER_PIPELINED_CONNECTION) */
  replacesNext(): boolean;
}

/** Per PostgreSQL pool handle; `undefined` on SQLite and for a handle with plugins (captureQueries), which goes the usual way. */
const lanes = new WeakMap<object, Lane>();
export const sharedTransactionLane = (db: Kysely<DB>): Lane | undefined => lanes.get(db);

/**
 * The statements a pipelined client is given in one turn of the event loop go out in one write:
 * the operations of a shared transaction each send their next statement as the answers to the
 * last ones arrive together, and one write per statement was a quarter of the server's CPU.
 */
function sendTogether(c: pg.Client): void {
  const stream = (c as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
  const query = c.query.bind(c) as (...args: unknown[]) => unknown;
  let corked = false;
  (c as { query: unknown }).query = (...args: unknown[]) => {
    if (!corked) {
      corked = true;
      stream.cork();
      process.nextTick(() => {
        corked = false;
        stream.uncork();
      });
    }
    return query(...args);
  };
}

/**
 * A connection is replaced after this many uses (pooled: statements lent out; the pipelined one:
 * transactions pinned). PostgreSQL keeps a generic plan for a named statement once it has run five
 * times, planned for the table as it was then: a lookup first run while its table was empty keeps
 * a sequential scan until something (autovacuum's ANALYZE) invalidates it. With autovacuum off, the
 * idempotency lookup of a fresh database scanned every key and spends slowed from ~1,000 to ~100
 * per second within a minute (issue 13). A new connection plans again for the table as it is now.
 */
const USES_PER_CONNECTION = 10_000;
const TRANSACTIONS_PER_PIPELINED_CONNECTION = 1_000;

/** How long a statement of a shared transaction waits for a lock (a long transaction may hold a reseller row) before the group's operations run alone instead (tx.ts). */
export const GROUP_LOCK_TIMEOUT = '200ms';

/** A "pool" of one pipelined client, connected on first use and again after its connection dies (but not while pinned). */
function onePipelinedClient(url: string, options: string) {
  let client: Promise<pg.PoolClient> | undefined;
  let pinned: Promise<pg.PoolClient> | undefined;
  let pins = 0;
  let ended = false;
  const open = (): Promise<pg.PoolClient> => {
    // Only this connection's own end clears it: a late event of a replaced one must not orphan the next.
    const forget = () => {
      if (client === opening) client = undefined;
    };
    const opening = (async () => {
      const c = new pg.Client({ connectionString: url, options, pipeline: true }) as pg.Client & { release?: () => void };
      c.on('error', (err) => {
        console.error('postgres pipelined connection error:', err.message);
        forget();
      });
      c.on('end', forget);
      c.release = () => undefined; // Kysely hands it back after each statement: it stays ours
      await c.connect().catch((err) => {
        forget();
        throw err;
      });
      sendTogether(c);
      return namePlannedStatements(c as unknown as pg.PoolClient);
    })();
    return opening;
  };
  const current = () => {
    if (ended) return Promise.reject(new Error('the database handle is closed'));
    client ??= open();
    return client;
  };
  /** Between transactions (nothing in flight but a BEGIN sent ahead, which ending it undoes): a new connection. */
  const replace = () => {
    const old = client;
    client = undefined;
    void old?.then((c) => c.end()).catch(() => undefined);
  };
  return {
    connect: () => pinned ?? current(),
    pin: () => {
      if (++pins % TRANSACTIONS_PER_PIPELINED_CONNECTION === 0) replace();
      pinned = current();
      return pinned;
    },
    unpin: () => {
      pinned = undefined;
    },
    replacesNext: () => (pins + 1) % TRANSACTIONS_PER_PIPELINED_CONNECTION === 0,
    end: async () => {
      ended = true;
      const c = await client?.catch(() => undefined);
      client = undefined;
      await c?.end();
    },
  };
}

/**
 * SQLite: the rows of a read, run at once (synchronously) when the connection has no open
 * transaction, so it cannot see a write that is not committed yet; `undefined` when it has one
 * (a group is running: the caller then goes the usual way, waiting for the connection) and on
 * PostgreSQL or inside a transaction handle. Every signed-in request's session check goes
 * through here: Kysely's way (connection provider, lock, async driver) cost more CPU than the
 * indexed lookup itself (issue 13).
 */
export function readNow<R>(db: Kysely<DB> | Transaction<DB>, query: CompiledQuery<R>): R[] | undefined {
  const sqlite = sqliteHandles.get(db);
  if (!sqlite || sqlite.inTransaction) return undefined;
  try {
    return sqlite.prepare(query.sql).all(query.parameters as unknown[]) as R[];
  } catch (err) {
    // A statement still iterating (an export's stream) keeps the connection busy until it ends.
    if (err instanceof TypeError && /busy/.test(err.message)) return undefined;
    throw err;
  }
}

export function openDatabase(url: string): Database {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length) || ':memory:';
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Group commit runs each operation in a SAVEPOINT, and SQLite copies every page an operation
    // first touches into the savepoint's sub-journal: past 64 KiB that journal spilled to a temp
    // file, a write() per page (~70 µs of each spend's statements). Kept in memory instead; it
    // holds the pages of one group at most and is dropped at COMMIT.
    sqlite.pragma('temp_store = MEMORY');
    keepPreparedStatements(sqlite);
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
    sqliteHandles.set(db, sqlite);
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  // No parallel workers for the panel's statements: each is an index walk or a capped count of a
  // few thousand rows, where starting and stopping workers costs 100-200 ms under concurrent load
  // (a text-search count at 1M lines: 187 ms parallel, 2.8 ms serial; issue 13).
  const options = '-c max_parallel_workers_per_gather=0';
  const pool = new pg.Pool({ connectionString: url, max: 10, options, maxUses: USES_PER_CONNECTION });
  // An idle client whose connection dies (server restart, failover) must not crash the process.
  pool.on('error', (err) => console.error('postgres idle client error:', err.message));
  // Nor one that dies while lent out between statements (the pool only listens to idle ones):
  // its statements fail, and the pool drops it when it comes back.
  pool.on('connect', (client) => client.on('error', (err) => console.error('postgres client error:', err.message)));
  const naming = { connect: async () => namePlannedStatements(await pool.connect()), end: () => pool.end() };
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: naming }) });
  // The lane runs nothing but shared transactions: their lock wait is capped for the session (see
  // GROUP_LOCK_TIMEOUT) instead of by a SET LOCAL in every one of them.
  const pipelined = onePipelinedClient(url, `${options} -c lock_timeout=${GROUP_LOCK_TIMEOUT}`);
  const lane = new Kysely<DB>({ dialect: new PostgresDialect({ pool: pipelined }) });
  lanes.set(db, { db: lane, pin: pipelined.pin, unpin: pipelined.unpin, replacesNext: pipelined.replacesNext });
  return {
    db,
    dialect: 'postgres',
    close: async () => {
      await lane.destroy();
      await db.destroy();
    },
  };
}
