import { CompiledQuery, type Kysely, type Transaction, createQueryId } from 'kysely';
import type pg from 'pg';
import { type Database, type Lane, sharedTransactionLane } from './connection.ts';
import type { DB } from './types.ts';

export type Tx = Kysely<DB> | Transaction<DB>;

/** At most this many operations share one SQLite commit, and a group stops taking more after this long. */
export const GROUP_MAX_OPERATIONS = 200;
export const GROUP_MAX_MS = 20;

/** Counts of groups (SQLite, and PostgreSQL's shared transactions) and the operations they committed, for tests and the bench. */
export const groupStats = { groups: 0, operations: 0 };
const countGroup = (operations: number) => {
  groupStats.groups++;
  groupStats.operations += operations;
};

export interface TxOptions {
  /**
   * PostgreSQL: the operation may share one transaction with others that say so, its statements
   * interleaved with theirs (see runSharedGroup), naming the resellers whose rows it updates (a
   * balance, a line count). Only for an operation whose every write is guarded by the statement
   * itself (a conditional UPDATE such as the guarded debit, a unique key), never by a row lock
   * taken earlier and a read after it: operations in one transaction do not wait for each other's
   * locks. SQLite ignores it (its groups run operations one after another).
   */
  shareTransaction?: { resellerIds: number[] };
}

/**
 * One write transaction. On PostgreSQL, a transaction of its own, or a share of one with
 * `shareTransaction` (see runSharedGroup). On SQLite, writes take the write lock up front (BEGIN IMMEDIATE)
 * and the callback must not await anything outside the database.
 *
 * SQLite group commit: every commit of a WAL database with synchronous=FULL is an fsync, and the
 * one connection runs one transaction at a time, so each operation paid a whole fsync. Instead the
 * operations that reach withTx during one turn of the event loop run one after another inside one
 * BEGIN IMMEDIATE transaction, each in its own SAVEPOINT (one that throws is rolled back to its
 * savepoint, and only its caller gets the error), and the group ends with one COMMIT. Every
 * caller's promise settles only after that COMMIT returned (if it fails, every caller of the group
 * gets the error and nothing of the group is kept): no answer ever precedes durability. Plain
 * reads outside withTx wait for the connection as before, so they never see a group's writes
 * before it commits.
 */
export async function withTx<T>(database: Database, fn: (trx: Kysely<DB>) => Promise<T>, options: TxOptions = {}): Promise<T> {
  if (database.dialect === 'postgres') {
    const share = options.shareTransaction;
    const lane = share && sharedTransactionLane(database.db);
    return share && lane ? inSharedTransaction(database, lane, fn, share.resellerIds) : ownTransaction(database, fn);
  }
  return new Promise<T>((resolve, reject) => {
    const q = queueOf(database.db);
    q.waiting.push({ fn: fn as Operation['fn'], resolve: resolve as Operation['resolve'], reject });
    if (!q.scheduled) {
      q.scheduled = true;
      startWhenSettled(database.db, q);
    }
  });
}

/**
 * Promise.all for parts of one operation sent together inside its transaction: waits for every
 * part before throwing the first failure, so no statement of the operation reaches the
 * connection after its caller rolled it back (Promise.all rejects at the first failure while the
 * other parts still run: a ledger row could then land after a SQLite savepoint's rollback).
 */
export async function allParts<T extends readonly unknown[] | []>(parts: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(parts);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/** PostgreSQL: a transaction of the operation's own. */
async function ownTransaction<T>(database: Database, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  // A deadlock or serialization failure rolled everything back: running it again is safe.
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute((trx) => fn(trx));
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= 3 || (code !== '40P01' && code !== '40001')) throw err;
    }
  }
}

type Work = (trx: Kysely<DB>) => Promise<unknown>;

/** Per group (SQLite's, keyed by its connection; PostgreSQL's shared, by its lane): work to run once, just before the group's COMMIT. */
const beforeCommit = new WeakMap<object, Map<string, Work>>();

/**
 * Work that only has to happen once per commit, whatever number of operations asked for it (the
 * dashboard-cache stamp of an owner's ancestors: one per line creation cost as much as the line
 * insert). Inside a group it runs once per `key` and commits together with every change that
 * asked for it; if it fails, the whole group fails. In a SQLite group it runs after the group's
 * last operation, before the COMMIT; in a shared PostgreSQL transaction it starts at the first
 * call and the COMMIT waits for it. Outside a group it runs at once.
 */
export async function onceBeforeCommit(trx: Tx, key: string, work: Work): Promise<void> {
  // A shared PostgreSQL transaction: sent at once, with the asking operation's next statements,
  // instead of in a round of its own before the COMMIT, which waits for it (issue 13). Every
  // operation of such a group commits or fails with all the others, so the work never outlives
  // the operation that asked for it.
  if (startedOncePerGroup(trx, key, () => work(trx as Kysely<DB>))) return;
  if (!beforeGroupCommit(trx, key, work)) await work(trx as Kysely<DB>);
}

/**
 * A read the operations of a shared PostgreSQL transaction share (a package's terms): they run at
 * once, so the first one's answer is as current as each would have read for itself, and the group
 * sends one statement instead of one per operation. Elsewhere it just reads. The answer is shared:
 * never change it.
 */
export function readOncePerGroup<T>(trx: Tx, key: string, read: () => Promise<T>): Promise<T> {
  return startedOncePerGroup(trx, `read:${key}`, read) ?? read();
}

/** In a shared PostgreSQL transaction: `start`'s promise, started by the first call for `key`; undefined outside one. */
function startedOncePerGroup<T>(trx: Tx, key: string, start: () => Promise<T>): Promise<T> | undefined {
  const started = sharedGroups.get(trx)?.started;
  if (!started) return undefined;
  let running = started.get(key);
  if (!running) {
    running = start();
    running.catch(() => undefined); // whoever asked hears of a failure, and the group's COMMIT waits for it
    started.set(key, running);
  }
  return running as Promise<T>;
}

/** Per shared PostgreSQL transaction (keyed by its lane's handle while it runs) */
interface SharedGroup {
  /** what startedOncePerGroup started, by key */
  started: Map<string, Promise<unknown>>;
  /** the reseller rows lockGroupRows locked for the whole group */
  locked: Set<number>;
}

const sharedGroups = new WeakMap<object, SharedGroup>();

/**
 * Registers `work` to run once per `key` just before the SQLite group's COMMIT, like
 * onceBeforeCommit: `'first'` when this call registered it, `'again'` when an earlier operation of
 * the group did, `undefined` outside a group, where nothing is kept. Work
 * registered by an operation that is undone is forgotten with it.
 */
export function beforeGroupCommit(trx: Tx, key: string, work: Work): 'first' | 'again' | undefined {
  const pending = beforeCommit.get(trx);
  if (!pending) return undefined;
  if (pending.has(key)) return 'again';
  pending.set(key, work);
  return 'first';
}

/** Forgets the work registered after the first `kept` (keys are only added, in order). */
function forgetAfter(pending: Map<string, Work>, kept: number): void {
  for (const key of [...pending.keys()].slice(kept)) pending.delete(key);
}

interface Operation {
  fn: (trx: Kysely<DB>) => Promise<unknown>;
  /** PostgreSQL shared transactions: the reseller rows it updates, locked for the whole group first */
  resellerIds?: number[];
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

interface Queue {
  waiting: Operation[];
  scheduled: boolean;
}

const queues = new WeakMap<Kysely<DB>, Queue>();

function queueOf(db: Kysely<DB>): Queue {
  let q = queues.get(db);
  if (!q) {
    q = { waiting: [], scheduled: false };
    queues.set(db, q);
  }
  return q;
}

/** At most this many event-loop turns a group waits for operations still arriving. */
const GROUP_WAIT_TURNS = 4;

/**
 * Starts the group once a turn of the event loop brought no new operation (at most
 * GROUP_WAIT_TURNS turns): each turn reads the requests that arrived meanwhile. A group blocks the
 * loop until its COMMIT returns, so at 16 connections the spends had split into two cohorts of ~8
 * taking turns, each paying an fsync; waiting for the stragglers makes groups of ~14-15 (issue 13:
 * line creations +7-12 % per second, p50 unchanged).
 */
function startWhenSettled(db: Kysely<DB>, q: Queue): void {
  let seen = 0;
  let turns = 0;
  const tick = () => {
    if (q.waiting.length > seen && turns < GROUP_WAIT_TURNS) {
      seen = q.waiting.length;
      turns++;
      setImmediate(tick);
    } else void runGroups(db, q);
  };
  setImmediate(tick);
}

/** Runs groups until nothing waits; the connection is released between groups so reads queued meanwhile go first. */
async function runGroups(db: Kysely<DB>, q: Queue): Promise<void> {
  try {
    while (q.waiting.length > 0) await runGroup(db, q);
  } finally {
    q.scheduled = false;
    if (q.waiting.length > 0) {
      q.scheduled = true;
      setImmediate(() => void runGroups(db, q));
    }
  }
}

type Settle = () => void;

/** A group's transaction control, compiled once: built per use, they were 4 of every spend's ~14 statements' Kysely work. */
const CONTROL = {
  sqliteBegin: CompiledQuery.raw('BEGIN IMMEDIATE'),
  postgresBegin: CompiledQuery.raw('BEGIN'),
  savepoint: CompiledQuery.raw('SAVEPOINT op'),
  release: CompiledQuery.raw('RELEASE op'),
  rollbackTo: CompiledQuery.raw('ROLLBACK TO op'),
  commit: CompiledQuery.raw('COMMIT'),
  rollback: CompiledQuery.raw('ROLLBACK'),
};

/** Runs a transaction control statement; plugins still see it (captureQueries lists it with the statements). */
function control(conn: Kysely<DB>, query: CompiledQuery) {
  const executor = conn.getExecutor();
  const queryId = createQueryId();
  executor.transformQuery(query.query, queryId);
  return executor.executeQuery({ ...query, queryId });
}

async function runGroup(db: Kysely<DB>, q: Queue): Promise<void> {
  const settled: Settle[] = [];
  const group: Operation[] = [];
  try {
    await db.connection().execute(async (conn) => {
      await control(conn, CONTROL.sqliteBegin);
      const started = performance.now();
      const pending = new Map<string, Work>();
      beforeCommit.set(conn, pending);
      try {
        while (q.waiting.length > 0 && group.length < GROUP_MAX_OPERATIONS && (group.length === 0 || performance.now() - started < GROUP_MAX_MS)) {
          const op = q.waiting.shift() as Operation;
          group.push(op);
          await control(conn, CONTROL.savepoint);
          const registered = pending.size;
          try {
            const value = await op.fn(conn);
            await control(conn, CONTROL.release);
            settled.push(() => op.resolve(value));
          } catch (err) {
            // Undo this operation only; if even that fails the transaction is gone, and the whole group fails below.
            await control(conn, CONTROL.rollbackTo);
            await control(conn, CONTROL.release);
            forgetAfter(pending, registered);
            settled.push(() => op.reject(err));
          }
        }
        for (const work of pending.values()) await work(conn);
        await control(conn, CONTROL.commit);
      } catch (err) {
        await control(conn, CONTROL.rollback).catch(() => undefined);
        throw err;
      } finally {
        beforeCommit.delete(conn);
      }
    });
  } catch (err) {
    // Nothing of the group was committed: every caller in it learns so.
    for (const op of group) op.reject(err);
    return;
  }
  countGroup(group.length);
  for (const settle of settled) settle();
}

/** PostgreSQL operations waiting for the next shared transaction of a lane. */
interface Shared {
  waiting: Operation[];
  running: boolean;
  /** the connection whose next transaction was begun (sent) right after the last COMMIT */
  begunOn?: object;
  /** the last group's COMMIT, still on its way: the next group's statements queue behind it */
  committing?: Promise<unknown>;
  idle?: NodeJS.Timeout;
}

/** A transaction begun ahead that no group took within this long is ended (see endWhenIdle). */
const BEGUN_AHEAD_MS = 100;

/**
 * Ends the transaction begun ahead if no group takes it soon: a session left "idle in
 * transaction" holds no lock, but CREATE INDEX CONCURRENTLY and monitoring wait on it or flag it.
 */
function endWhenIdle(lane: Lane, s: Shared): void {
  clearTimeout(s.idle);
  s.idle = setTimeout(() => {
    if (s.running || !s.begunOn) return;
    s.begunOn = undefined;
    control(lane.db, CONTROL.commit).catch(() => undefined);
  }, BEGUN_AHEAD_MS);
  s.idle.unref();
}

const shared = new WeakMap<Lane, Shared>();

function inSharedTransaction<T>(database: Database, lane: Lane, fn: (trx: Kysely<DB>) => Promise<T>, resellerIds: number[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let s = shared.get(lane);
    if (!s) {
      s = { waiting: [], running: false };
      shared.set(lane, s);
    }
    s.waiting.push({ fn: fn as Operation['fn'], resellerIds, resolve: resolve as Operation['resolve'], reject });
    if (!s.running) {
      s.running = true;
      const queue = s;
      setImmediate(() => void runShared(database, lane, queue));
    }
  });
}

async function runShared(database: Database, lane: Lane, s: Shared): Promise<void> {
  try {
    while (s.waiting.length > 0) {
      // A new connection must not be taken while the old one still owes a COMMIT's answer.
      if (lane.replacesNext()) await s.committing;
      await runSharedGroup(database, lane, s, s.waiting.splice(0, GROUP_MAX_OPERATIONS));
    }
  } finally {
    s.running = false;
  }
}


/**
 * Locks the reseller rows every operation of the group updates, in id order, before any of them
 * runs. Interleaved, the operations would otherwise take them in no set order, and two processes'
 * groups (WORKERS=2) could each hold a row the other waits for: a deadlock, which PostgreSQL only
 * breaks after a second (deadlock_timeout). Taken in id order, as every transfer takes its two,
 * the groups of two processes wait for each other instead. No statement of the group waits for a
 * lock longer than GROUP_LOCK_TIMEOUT: one reseller's row held by a long transaction (moving a
 * sub-reseller's lines) must not hold up every spend of the process.
 */
function lockGroupRows(client: pg.ClientBase, rows: Set<number>): Promise<unknown> {
  const ids = [...rows].sort((a, b) => a - b);
  // Sent straight to the pinned connection, so they are on the wire before any statement of the
  // operations: PostgreSQL runs a connection's statements in order, so none of them runs before
  // the rows are locked, and the lock costs no round trip of its own.
  return ids.length > 0 ? client.query('SELECT id FROM resellers WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE', [ids]) : Promise.resolve();
}

/** Whether the shared transaction `trx` belongs to already holds these reseller rows locked (see lockGroupRows). */
export function lockedByGroup(trx: Tx, ids: number[]): boolean {
  const locked = sharedGroups.get(trx)?.locked;
  return locked !== undefined && ids.every((id) => locked.has(id));
}

/** PostgreSQL's answer to a statement sent after an earlier one failed the transaction. */
const ABORTED = '25P02';

/**
 * PostgreSQL group commit for spends (issue 13). Every spend of one reseller waits for its
 * balance row, locked by the guarded debit until the COMMIT, and every statement is a round trip
 * (~0.1 ms here): one transaction per spend ran one reseller's spends one at a time, ~200 per
 * second. A lane is one connection in pipeline mode: the operations waiting run together in one
 * transaction, all at once, each statement sent without waiting for the others' answers, and end
 * with one COMMIT; no caller hears back before it.
 *
 * There is no savepoint per operation (savepoints nest; interleaved operations cannot each have
 * one). So when any operation fails (its own error, or a statement of it that PostgreSQL refused,
 * which also fails every statement after it), the whole transaction is rolled back and nothing of
 * it was committed. The operations that failed with an error of their own then run again each in
 * a transaction of its own, where one that fails fails alone and with its own error; the others go
 * back to the front of the queue for the next group. When the group itself failed (its connection,
 * its lock), all of them run alone. A COMMIT that fails is not run again (if the connection died,
 * it may have committed): every caller of the group gets the error. The next group does not wait
 * for the COMMIT's answer: its statements go out behind the COMMIT and the BEGIN sent with it.
 */
async function runSharedGroup(database: Database, lane: Lane, s: Shared, group: Operation[]): Promise<void> {
  const pending = new Map<string, Work>(); // beforeGroupCommit's: only the line search deferral registers any, on SQLite; empty here
  const groupState: SharedGroup = { started: new Map(), locked: new Set(group.flatMap((op) => op.resellerIds ?? [])) };
  const db = lane.db;
  let values: unknown[] | undefined;
  let ownFailures: boolean[] | undefined; // per operation: failed with an error of its own
  let client: pg.ClientBase | undefined;
  try {
    client = await lane.pin();
    // The BEGIN sent right after the last COMMIT saved a round trip, when it was on this connection
    // and the connection still reports it open (an answer that came late, or a ROLLBACK since, do not count).
    if (s.begunOn !== client || client.getTransactionStatus() !== 'T') await control(db, CONTROL.postgresBegin);
    s.begunOn = undefined;
    beforeCommit.set(db, pending);
    sharedGroups.set(db, groupState);
    const [locked, ...results] = await Promise.allSettled([lockGroupRows(client, groupState.locked), ...group.map((op) => op.fn(db))]);
    if (locked.status === 'fulfilled') {
      if (results.every((r) => r.status === 'fulfilled')) {
        await Promise.all(groupState.started.values());
        for (const work of pending.values()) await work(db);
        // An operation that caught a refused statement and went on would leave the transaction
        // failed, and PostgreSQL answers COMMIT on a failed transaction with a ROLLBACK.
        if (client.getTransactionStatus() === 'T') values = results.map((r) => (r as PromiseFulfilledResult<unknown>).value);
      } else {
        ownFailures = results.map((r) => r.status === 'rejected' && (r.reason as { code?: string } | undefined)?.code !== ABORTED);
      }
    }
  } catch {
    values = undefined; // the connection, the BEGIN or the work before the COMMIT failed: as if an operation had
  } finally {
    beforeCommit.delete(db);
    sharedGroups.delete(db);
  }
  try {
    if (values && client) {
      // Sent straight to the connection, so they are on it before anything of the next group,
      // which starts at once instead of after the COMMIT's answer: PostgreSQL runs the next
      // group's statements after this COMMIT and the BEGIN sent with it (issue 13). The callers
      // still hear back only once the COMMIT answered.
      const committed = client.query('COMMIT');
      const begun = client.query('BEGIN'); // the next group's
      const on = client;
      s.begunOn = on;
      begun.then(
        () => endWhenIdle(lane, s),
        () => {
          if (s.begunOn === on) s.begunOn = undefined;
        },
      );
      const answered = values;
      s.committing = committed.then(
        (res) => {
          // PostgreSQL answers COMMIT on a failed transaction with ROLLBACK, not an error (the
          // status check above should make this impossible; nothing is answered as kept that was not).
          if (res.command !== 'COMMIT') {
            for (const op of group) op.reject(new Error(`the shared transaction ended with ${res.command}, not COMMIT`));
            return;
          }
          countGroup(group.length);
          for (const [i, op] of group.entries()) op.resolve(answered[i]);
        },
        (err) => {
          for (const op of group) op.reject(err);
        },
      );
      return;
    }
    await control(db, CONTROL.rollback).catch(() => undefined);
  } finally {
    lane.unpin();
  }
  // Nothing of the group was committed. Without an operation to blame, all of them run alone.
  const alone = ownFailures?.some(Boolean) ? ownFailures : group.map(() => true);
  s.waiting.unshift(...group.filter((_, i) => !alone[i]));
  await Promise.all(group.filter((_, i) => alone[i]).map((op) => ownTransaction(database, op.fn).then(op.resolve, op.reject)));
}
