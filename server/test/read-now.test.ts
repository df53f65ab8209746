import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNow } from '../src/db/connection.ts';
import { withTx } from '../src/db/tx.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

// The session check reads at once on SQLite when the connection has no open transaction
// (readNow): it must never see a write that is not committed, and must step aside otherwise.
describe(`reads at once (${ENGINE})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await t.login('admin'); // the first admin exists and signs in
  });
  afterAll(() => t.close());

  const usernameOf = (id: number) => t.database.db.selectFrom('resellers').select('username').where('id', '=', id).compile();

  it.runIf(ENGINE === 'postgres')('PostgreSQL always goes the usual way', () => {
    expect(readNow(t.database.db, usernameOf(1))).toBeUndefined();
  });

  it.runIf(ENGINE === 'sqlite')('reads committed rows at once (beside a stream too), and steps aside inside a transaction', async () => {
    const db = t.database.db;
    expect(readNow(db, usernameOf(1))).toEqual([{ username: 'admin' }]);
    let inside: unknown = 'not run';
    let throughHandle: unknown = 'not run';
    await withTx(t.database, async (trx) => {
      await trx.updateTable('resellers').set({ username: 'renamed_uncommitted' }).where('id', '=', 1).execute();
      inside = readNow(db, usernameOf(1)); // the connection holds an open transaction: no read at once
      throughHandle = readNow(trx, usernameOf(1)); // nor through the transaction's own handle
      throw new Error('roll back');
    }).catch(() => undefined);
    expect(inside).toBeUndefined();
    expect(throughHandle).toBeUndefined();
    expect(readNow(db, usernameOf(1))).toEqual([{ username: 'admin' }]);

    // An export streams its rows on the connection (a read, no transaction): reading beside it is safe.
    const iterator = db.selectFrom('resellers').select('id').stream()[Symbol.asyncIterator]();
    try {
      await iterator.next();
      expect(readNow(db, usernameOf(1))).toEqual([{ username: 'admin' }]);
    } finally {
      await iterator.return?.();
    }
  });

  it('a request arriving while a transaction un-revokes a session is refused: it never reads what is not committed', async () => {
    const token = await t.login('admin');
    expect((await t.call(token, { method: 'GET', url: '/api/profile' })).statusCode).toBe(200);
    const db = t.database.db;
    const session = await db.selectFrom('sessions').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await db.updateTable('sessions').set({ revoked_at: 1 }).where('id', '=', session.id).execute();
    let pending: Promise<number> | undefined;
    await withTx(t.database, async (trx) => {
      await trx.updateTable('sessions').set({ revoked_at: null }).where('id', '=', session.id).execute();
      pending = t.call(token, { method: 'GET', url: '/api/profile' }).then((res) => res.statusCode);
      await sql`SELECT 1`.execute(trx);
      await new Promise((r) => setImmediate(r)); // let the request run its hooks now, transaction open
      throw new Error('roll back');
    }).catch(() => undefined);
    expect(await pending).toBe(401);
  });
});
