import { Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, SelectQueryNode, SqliteDialect } from 'kysely';
import { processLogger } from '../lib/logger.ts';

/**
 * SQLite with its reads off the event loop. better-sqlite3 runs every statement synchronously: a
 * slow read (a sort no index holds, at a million lines) would hold up every request meanwhile. So
 * a statement sent outside a transaction that only reads (better-sqlite3's `reader` and
 * `readonly`) runs on a reader thread (sqlite-reader.mjs), each with its own read-only connection
 * to the same file; WAL lets them read beside the writer, and each statement there sees every
 * write committed before it began. Everything else runs on the main connection, one holder at a
 * time as in Kysely's own SQLite driver: writes, BEGIN IMMEDIATE and every statement of a
 * transaction (its reads too: they must see its uncommitted writes), PRAGMAs (some are settings of
 * the connection) and streams. A read does not wait for the main connection, so a long write
 * transaction holds up no read. Without readers (0, or a `:memory:` database, which other
 * connections cannot open) everything runs on the main connection.
 */

/** Statements a reader runs: reads, but no PRAGMA (some read settings of the main connection alone). */
const PRAGMA = /^\s*pragma\b/i;

type Pending = { resolve: (rows: unknown[]) => void; reject: (err: Error) => void; retry: () => void };
type Answer = { ready: true } | { id: number; rows: Record<string, unknown>[]; blobs: boolean } | { id: number; error: { name: string; message: string; code?: string } };

interface Reader {
  worker: Worker;
  pending: Map<number, Pending>;
  /** answered `ready` (its connection is open): a failure after that is the statement's, not the start's */
  ready: boolean;
}

export interface ReaderOptions {
  file: string;
  size: number;
  busyTimeoutMs: number;
  statementCache: number;
}

/** The reader threads: a read goes to the one with the fewest reads waiting. */
class ReaderPool {
  readonly #readers: Reader[] = [];
  readonly #options: ReaderOptions;
  #next = 0;
  #closed = false;

  constructor(options: ReaderOptions) {
    this.#options = options;
    for (let i = 0; i < options.size; i++) this.#start();
  }

  get size(): number {
    return this.#readers.length;
  }

  #start(): void {
    const { file, busyTimeoutMs, statementCache } = this.#options;
    const worker = new Worker(new URL('./sqlite-reader.mjs', import.meta.url), { workerData: { file, busyTimeoutMs, statementCache } });
    worker.unref(); // an idle reader keeps nothing alive; one with reads waiting is ref'd (read())
    const reader: Reader = { worker, pending: new Map(), ready: false };
    worker.on('message', (answer: Answer) => {
      if ('ready' in answer) {
        reader.ready = true;
        return;
      }
      const waiting = reader.pending.get(answer.id);
      if (!waiting) return;
      reader.pending.delete(answer.id);
      if (reader.pending.size === 0) worker.unref();
      if ('error' in answer) waiting.reject(rebuildError(answer.error));
      else waiting.resolve(answer.blobs ? answer.rows.map(blobsAsBuffers) : answer.rows);
    });
    const fail = (err: Error) => {
      const index = this.#readers.indexOf(reader);
      if (index < 0) return;
      this.#readers.splice(index, 1);
      if (!this.#closed) processLogger().error({ err, left: this.#readers.length }, 'SQLite reader thread stopped');
      // Reads sent before its connection opened run elsewhere; one that was running fails.
      for (const waiting of reader.pending.values()) (reader.ready ? waiting.reject(err) : waiting.retry());
      reader.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`reader thread exited with code ${code}`)));
    this.#readers.push(reader);
  }

  /** The rows of the statement, read by a reader thread; `retry` runs it elsewhere if the thread could not start. */
  read(sql: string, parameters: readonly unknown[], retry: () => Promise<unknown[]>): Promise<unknown[]> {
    const count = this.#readers.length;
    let chosen = this.#readers[this.#next++ % count];
    for (const reader of this.#readers) if (reader.pending.size < chosen.pending.size) chosen = reader;
    const id = this.#next;
    return new Promise((resolve, reject) => {
      if (chosen.pending.size === 0) chosen.worker.ref();
      chosen.pending.set(id, { resolve, reject, retry: () => retry().then(resolve, reject) });
      chosen.worker.postMessage({ id, sql, parameters });
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const readers = this.#readers.splice(0);
    await Promise.all(readers.map((r) => r.worker.terminate()));
    for (const r of readers) for (const waiting of r.pending.values()) waiting.reject(new Error('the database is closed'));
  }
}

/** A reader's error as the main connection would have thrown it: a SqliteError with the same `code`. */
function rebuildError(error: { name: string; message: string; code?: string }): Error {
  if (error.code) return new SqliteDatabase.SqliteError(error.message, error.code);
  const Kind = error.name === 'TypeError' ? TypeError : error.name === 'RangeError' ? RangeError : Error;
  return new Kind(error.message);
}

/** Blobs cross the thread as Uint8Array; the main connection gives Buffers. */
function blobsAsBuffers(row: Record<string, unknown>): Record<string, unknown> {
  for (const key in row) {
    const value = row[key];
    if (value instanceof Uint8Array && !Buffer.isBuffer(value)) row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  return row;
}

/** Kysely's one-holder-at-a-time lock on the main connection (as in its SqliteDriver). */
class Mutex {
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.#promise) await this.#promise;
    this.#promise = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  unlock(): void {
    const resolve = this.#resolve;
    this.#promise = undefined;
    this.#resolve = undefined;
    resolve?.();
  }
}

function runOnMain(sqlite: SqliteDatabase.Database, { sql, parameters }: CompiledQuery): QueryResult<unknown> {
  const stmt = sqlite.prepare(sql);
  if (stmt.reader) return { rows: stmt.all(parameters as unknown[]) };
  const { changes, lastInsertRowid } = stmt.run(parameters as unknown[]);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/**
 * What Kysely asks for a connection gets: no lock taken up front. It takes the main connection's
 * lock for a statement that must run there (released after it, unless the statement left a
 * transaction open) and for a whole transaction (from BEGIN to the connection's release).
 */
class SqliteConnection implements DatabaseConnection {
  readonly #driver: SqliteReadersDriver;
  #holds = false;

  constructor(driver: SqliteReadersDriver) {
    this.#driver = driver;
  }

  async hold(): Promise<void> {
    if (this.#holds) return;
    await this.#driver.mutex.lock();
    this.#holds = true;
  }

  release(): void {
    if (!this.#holds) return;
    this.#holds = false;
    this.#driver.mutex.unlock();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { sqlite, pool } = this.#driver;
    if (this.#holds) return runOnMain(sqlite, query) as QueryResult<R>;
    if (pool && pool.size > 0) {
      // Preparing is a look-up in the main connection's statement cache (connection.ts).
      const stmt = sqlite.prepare(query.sql);
      if (stmt.reader && stmt.readonly && !PRAGMA.test(query.sql)) {
        const rows = await pool.read(query.sql, query.parameters, () => this.#onMain(query).then((r) => r.rows));
        return { rows: rows as R[] };
      }
    }
    return (await this.#onMain(query)) as QueryResult<R>;
  }

  /** One statement on the main connection, waiting for it; a transaction it opens keeps it held. */
  async #onMain(query: CompiledQuery): Promise<QueryResult<unknown>> {
    await this.hold();
    try {
      return runOnMain(this.#driver.sqlite, query);
    } finally {
      if (!this.#driver.sqlite.inTransaction) this.release();
    }
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    const held = this.#holds;
    await this.hold();
    try {
      for (const row of this.#driver.sqlite.prepare(query.sql).iterate(query.parameters as unknown[])) yield { rows: [row as R] };
    } finally {
      if (!held && !this.#driver.sqlite.inTransaction) this.release();
    }
  }
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

class SqliteReadersDriver implements Driver {
  readonly sqlite: SqliteDatabase.Database;
  pool: ReaderPool | undefined;
  readonly mutex = new Mutex();
  readonly #readers: ReaderOptions | undefined;

  constructor(sqlite: SqliteDatabase.Database, readers: ReaderOptions | undefined) {
    this.sqlite = sqlite;
    this.#readers = readers;
  }

  /** Kysely's first query: the reader threads start (destroy() stops them; Kysely calls it only after an init). */
  async init(): Promise<void> {
    if (this.#readers && this.#readers.size > 0) this.pool = new ReaderPool(this.#readers);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new SqliteConnection(this);
  }

  /** BEGIN IMMEDIATE: the write lock up front, never an upgrade that fails halfway. */
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as SqliteConnection).hold();
    await connection.executeQuery(CompiledQuery.raw('BEGIN IMMEDIATE'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`SAVEPOINT ${quoted(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`ROLLBACK TO ${quoted(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`RELEASE ${quoted(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as SqliteConnection).release();
  }

  async destroy(): Promise<void> {
    await this.pool?.close();
    this.sqlite.close();
  }
}

/** Kysely's SQLite dialect on the driver above; `readers` undefined or of size 0: no reader threads. */
export class SqliteReadersDialect extends SqliteDialect {
  readonly #driver: SqliteReadersDriver;

  constructor(sqlite: SqliteDatabase.Database, readers: ReaderOptions | undefined) {
    super({ database: sqlite });
    this.#driver = new SqliteReadersDriver(sqlite, readers);
  }

  /** How many reader threads serve reads now (0: everything runs on the main connection). */
  get readers(): number {
    return this.#driver.pool?.size ?? 0;
  }

  override createDriver(): Driver {
    return this.#driver;
  }
}
