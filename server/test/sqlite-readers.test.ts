import SqliteDatabase from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { Kysely as KyselyDb } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, readNow } from '../src/db/connection.ts';
import { SqliteReadersDialect } from '../src/db/sqlite-readers.ts';
import { withTx } from '../src/db/tx.ts';
import type { DB } from '../src/db/types.ts';
import { ENGINE, FAST_TIER, type TestContext, createTestContext } from './helpers.ts';
import { SLOW_COUNT, slowRead } from './perf/sqlite-slow-read.ts';
import { processLogger } from '../src/lib/logger.ts';

// SQLite's reads outside transactions run on reader threads (server/src/db/sqlite-readers.ts), so
// a slow read no longer holds the event loop: every other request goes on meanwhile. Writes and
// transactions stay on the main connection. PostgreSQL has its own pool: SQLite only.

const REQUESTS = 100;

/**
 * The slow read sent first, then 100 signed-in `/api/profile` requests one after another: how many
 * answered (all 200) before the slow read did. How fast they answer beside it is measured in
 * test/perf/sqlite-readers-latency.test.ts.
 */
async function profilesBesideSlowRead(t: TestContext, token: string): Promise<number> {
  let slowEnded = false;
  const slow = slowRead(t.database.db).then((r) => {
    slowEnded = true;
    return r;
  });
  let beforeSlowEnded = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const res = await t.call(token, { method: 'GET', url: '/api/profile' });
    expect(res.statusCode).toBe(200);
    if (!slowEnded) beforeSlowEnded++;
  }
  expect((await slow).rows).toEqual([{ n: SLOW_COUNT }]);
  return beforeSlowEnded;
}

describe.runIf(ENGINE === 'sqlite')('SQLite reads on reader threads', () => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestContext({ sqliteReaders: 2 }); // SQLITE_READERS' default, whatever the environment says
    token = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('a slow read leaves every other request going: 100 /api/profile sent after it all answer before it does', { skip: FAST_TIER }, async () => {
    expect(t.database.readers).toBe(2);
    expect(await profilesBesideSlowRead(t, token)).toBe(REQUESTS);
  });

  it('with the readers off, the same requests wait for the slow read: none answers before it', { skip: FAST_TIER }, async () => {
    const off = await createTestContext({ sqliteReaders: 0 });
    try {
      expect(off.database.readers).toBe(0);
      const offToken = await off.login('admin');
      expect(await profilesBesideSlowRead(off, offToken)).toBe(0);
    } finally {
      await off.close();
    }
  });

  it("reads a write committed just before, through the API and through the handle", async () => {
    for (let i = 0; i < 20; i++) {
      const news = { title: `Aviso ${i}`, body: `texto ${i}`, level: 1, status: 1 };
      expect((await t.call(token, { method: 'PUT', url: '/api/news/1', payload: news })).statusCode).toBe(200);
      const listed = (await t.call(token, { method: 'GET', url: '/api/news' })).json().data;
      expect(listed.find((n: { id: number }) => n.id === 1)).toEqual({ id: 1, ...news });
    }
    const db = t.database.db;
    for (let i = 0; i < 20; i++) {
      await db.updateTable('news').set({ title: `direct ${i}` }).where('id', '=', 2).execute();
      expect((await db.selectFrom('news').select('title').where('id', '=', 2).executeTakeFirstOrThrow()).title).toBe(`direct ${i}`);
    }
  });

  it('a transaction reads its own writes on its connection; a read outside it neither waits for it nor sees them', async () => {
    const db = t.database.db;
    const titleOf = (h: Kysely<DB>) => h.selectFrom('news').select('title').where('id', '=', 2).executeTakeFirstOrThrow();
    const before = (await titleOf(db)).title;
    await withTx(t.database, async (trx) => {
      await trx.updateTable('news').set({ title: 'uncommitted' }).where('id', '=', 2).execute();
      expect((await titleOf(trx)).title).toBe('uncommitted');
      // With everything on the main connection this read would wait for the transaction (here: forever).
      expect((await titleOf(db)).title).toBe(before);
      throw new Error('roll back');
    }).catch((err) => expect((err as Error).message).toBe('roll back'));
    expect((await titleOf(db)).title).toBe(before);
  });

  it("a reader's error is the one the main connection throws: a SqliteError with the same code", async () => {
    const bad = sql`SELECT json(${'not json'}) AS j`;
    const onReader = await bad.execute(t.database.db).catch((err: unknown) => err);
    let onMain: unknown;
    await withTx(t.database, async (trx) => {
      onMain = await bad.execute(trx).catch((err: unknown) => err); // a transaction's reads run on the main connection
    });
    expect(onReader).toBeInstanceOf(SqliteDatabase.SqliteError);
    expect(onMain).toBeInstanceOf(SqliteDatabase.SqliteError);
    expect({ code: (onReader as { code: string }).code, message: (onReader as Error).message }).toEqual({
      code: (onMain as { code: string }).code,
      message: (onMain as Error).message,
    });
    expect((onReader as { code: string }).code).toBe('SQLITE_ERROR');
  });

  it('values come back of the same types as from the main connection (blobs as Buffers)', async () => {
    const query = sql<Record<string, unknown>>`SELECT x'00ff10' AS b, 9007199254740991 AS big, 1.5 AS f, 'é' AS s, NULL AS z`.compile(t.database.db);
    const onReader = (await t.database.db.executeQuery(query)).rows;
    const onMain = readNow(t.database.db, query); // the session check's way: the main connection, at once
    expect(onMain).toBeDefined();
    expect(Buffer.isBuffer(onReader[0].b)).toBe(true);
    expect(onReader).toEqual(onMain);
  });

  it('is off for a :memory: database (no other connection can open it) and when SQLITE_READERS is 0', async () => {
    const memory = openDatabase('sqlite::memory:', { sqliteReaders: 2 });
    try {
      expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(memory.db)).rows).toEqual([{ one: 1 }]);
      expect(memory.readers).toBe(0);
    } finally {
      await memory.close();
    }
  });

  it('close() stops the reader threads', async () => {
    const url = t.deps.config.databaseUrl;
    const other = openDatabase(url, { sqliteReaders: 3 });
    expect((await other.db.selectFrom('resellers').select('username').where('id', '=', 1).execute()).length).toBe(1);
    expect(other.readers).toBe(3);
    await other.close();
    expect(other.readers).toBe(0);
  });

  it('a reader thread that cannot open its connection leaves its reads to the main connection', async () => {
    const logged = vi.spyOn(processLogger(), 'error').mockImplementation(() => undefined);
    const sqlite = new SqliteDatabase(':memory:');
    const dialect = new SqliteReadersDialect(sqlite, { file: '/nonexistent/panel.db', size: 1, busyTimeoutMs: 100, statementCache: 10 });
    const db = new KyselyDb<DB>({ dialect });
    try {
      const reads = await Promise.all([1, 2, 3].map((n) => sql<{ n: number }>`SELECT ${n} AS n`.execute(db)));
      expect(reads.map((r) => r.rows)).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }]]);
      expect(dialect.readers).toBe(0);
      expect((await sql<{ n: number }>`SELECT 4 AS n`.execute(db)).rows).toEqual([{ n: 4 }]);
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ left: 0 }), 'SQLite reader thread stopped');
    } finally {
      await db.destroy();
      logged.mockRestore();
    }
  });
});
