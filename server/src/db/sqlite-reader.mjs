// One SQLite reader thread (started by db/sqlite-readers.ts): its own read-only connection to the
// server's database file, answering `{ id, sql, parameters }` with `{ id, rows }`, or with
// `{ id, error: { name, message, code } }` (the SQLite error code, e.g. SQLITE_ERROR). In WAL mode
// it reads beside the server's writer; each statement is its own read transaction, so it sees
// every write committed before it started. Plain JavaScript: it runs as it is under tsx and beside
// the compiled server (server/build.mjs bundles it next to main.js).
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

const { file, busyTimeoutMs, statementCache } = workerData;
const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
db.pragma(`busy_timeout = ${busyTimeoutMs}`);

/** Prepared statements kept per SQL text, least recently used out first (as on the main connection). */
const cache = new Map();
function prepare(sql) {
  const kept = cache.get(sql);
  if (kept) {
    cache.delete(sql);
    cache.set(sql, kept);
    return kept;
  }
  const fresh = db.prepare(sql);
  cache.set(sql, fresh);
  if (cache.size > statementCache) cache.delete(cache.keys().next().value);
  return fresh;
}

/** Whether a row holds a blob: it arrives as a Uint8Array on the other side and is made a Buffer again there. */
function hasBlob(rows) {
  for (const row of rows) for (const key in row) if (Buffer.isBuffer(row[key])) return true;
  return false;
}

parentPort.on('message', ({ id, sql, parameters }) => {
  let answer;
  try {
    const rows = prepare(sql).all(parameters);
    answer = { id, rows, blobs: hasBlob(rows) };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    answer = { id, error: { name: e.name, message: e.message, code: typeof e.code === 'string' ? e.code : undefined } };
  }
  parentPort.postMessage(answer);
});
parentPort.postMessage({ ready: true });
