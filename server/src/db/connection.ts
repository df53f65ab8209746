import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type CompiledQuery, Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { markDatabaseUnreachable } from '../domain/errors.ts';
import { SqliteReadersDialect } from './sqlite-readers.ts';
import type { DB } from './types.ts';
import { processLogger } from '../lib/logger.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** SQLite: how many reader threads run the reads outside transactions now (sqlite-readers.ts); 0: none (and on PostgreSQL) */
  readonly readers: number;
  /** The connections now (metrics): PostgreSQL's pool; SQLite's writer connection and reader threads, never idle or waited for in this sense */
  pool(): PoolFigures;
  close(): Promise<void>;
}

export interface PoolFigures {
  total: number;
  idle?: number;
  /** requests waiting for a connection */
  waiting?: number;
}

export interface OpenOptions {
  /** SQLite reader threads (SQLITE_READERS, config.ts); 0, or a `:memory:` database: none */
  sqliteReaders?: number;
}

/** SQLite reader threads when the caller does not say (config.ts reads SQLITE_READERS). */
export const DEFAULT_SQLITE_READERS = 2;

// int8 (counts, bigint ids, epoch ms) would otherwise arrive as strings from pg.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** Prepared statements kept per SQL text; enough for every distinct query the server sends. */
const STATEMENT_CACHE = 500;

/**
 * Kysely's SQLite driver prepares every query again (~40 µs each, 3-6 per request, measured;
 * docs/performance.md); this keeps the statements, least recently used out first. A statement
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

/** SQLSTATEs of a lost connection: class 08 (connection exception), the server shutting down or starting. */
const LOST_CONNECTION = /^(08...|57P0[123])$/;
/** What pg itself says when the connection under a query broke (its error texts). */
const PG_CONNECTION_TEXTS = /Connection terminated|not queryable|connection error|timeout exceeded when trying to connect/i;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const wrapped = new WeakSet<pg.PoolClient>();

/**
 * PostgreSQL: errors of the connection rather than of a statement are marked (domain/errors.ts),
 * so a request answers 504 DATABASE_UNAVAILABLE instead of 500: connecting failed, or a query's
 * connection broke. Only errors from this pool are marked, never an outside system's.
 */
function markConnectionErrors(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const lost = (err: unknown) => {
    const e = err as { code?: unknown; message?: unknown; severity?: unknown };
    const code = typeof e?.code === 'string' ? e.code : '';
    if (e?.severity !== undefined) return LOST_CONNECTION.test(code); // the server's own answer
    return NETWORK_CODES.has(code) || PG_CONNECTION_TEXTS.test(String(e?.message ?? ''));
  };
  (pool as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
    let client: pg.PoolClient;
    try {
      client = await connect();
    } catch (err) {
      throw markDatabaseUnreachable(err);
    }
    if (!wrapped.has(client)) {
      wrapped.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const result = query(...args);
        return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(lost(err) ? markDatabaseUnreachable(err) : err)) : result;
      };
    }
    return client;
  };
}

/** SQLite: how long a write waits for another process's write lock before failing with BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 1_000;

const sqliteHandles = new WeakMap<object, SqliteDatabase.Database>();

/**
 * SQLite: the rows of a read, run at once (synchronously) on the main connection when it has no
 * open transaction, so it cannot see a write that is not committed yet; `undefined` when it has
 * one (a write is running: the caller then goes the usual way, which sends the read to a reader
 * thread, or waits for the connection without them; sqlite-readers.ts) and on PostgreSQL or
 * inside a transaction handle. Every signed-in request's session check goes through here: an
 * indexed lookup costs less than Kysely's way (connection provider, async driver) or a trip to a
 * reader thread.
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

export function openDatabase(url: string, open: OpenOptions = {}): Database {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length) || ':memory:';
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    // Another process holding the write lock (a second worker, the sqlite3 shell) makes a write
    // wait at most this long, then fail with BUSY (503) having changed nothing; see db/tx.ts.
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    keepPreparedStatements(sqlite);
    // Reads outside transactions run on reader threads, each with its own read-only connection;
    // writes and transactions (BEGIN IMMEDIATE) stay on this one (sqlite-readers.ts). Another
    // connection cannot open a `:memory:` database: none there.
    const size = file === ':memory:' ? 0 : (open.sqliteReaders ?? DEFAULT_SQLITE_READERS);
    const dialect = new SqliteReadersDialect(sqlite, { file: path.resolve(file), size, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS, statementCache: STATEMENT_CACHE });
    const db = new Kysely<DB>({ dialect });
    sqliteHandles.set(db, sqlite);
    return {
      db,
      dialect: 'sqlite',
      get readers() {
        return dialect.readers;
      },
      pool: () => ({ total: 1 + dialect.readers }),
      close: () => db.destroy(),
    };
  }
  // No parallel workers for the panel's statements: each is an index walk or a capped count of a
  // few thousand rows, where starting and stopping workers costs 100-200 ms under concurrent load
  // (a text-search count at 1M lines: 187 ms parallel, 2.8 ms serial).
  const options = '-c max_parallel_workers_per_gather=0';
  const pool = new pg.Pool({ connectionString: url, max: 10, options });
  // An idle client whose connection dies (server restart, failover) must not crash the process.
  // Only the message and code: pg hangs the whole client (its connection parameters) on the error.
  const brief = (err: Error & { code?: string }) => ({ err: { message: err.message, code: err.code } });
  pool.on('error', (err) => processLogger().error(brief(err), 'postgres idle client error'));
  // Nor one that dies while lent out between statements (the pool only listens to idle ones):
  // its statements fail, and the pool drops it when it comes back.
  pool.on('connect', (client) => client.on('error', (err) => processLogger().error(brief(err), 'postgres client error')));
  markConnectionErrors(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const pool_ = (): PoolFigures => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  return { db, dialect: 'postgres', readers: 0, pool: pool_, close: () => db.destroy() };
}
