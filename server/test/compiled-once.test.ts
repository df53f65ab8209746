import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../src/db/compiled.ts';
import { captureQueries } from '../src/db/plans.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

// Hot statements compiled once and run with new values (db/compiled.ts): the same SQL and values
// as built the usual way, per shape; a misuse fails in tests; plugins still see real statements.
describe(`statements compiled once (${ENGINE})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  const byName = compiledOnce((db, a: { username: string; status?: number }) => {
    let q = db.selectFrom('resellers').select(['id', 'username']).where('username', '=', a.username);
    if (a.status !== undefined) q = q.where('status', '=', a.status);
    return q;
  });

  it('runs with each call\'s values, one statement per shape', async () => {
    const db = t.database.db;
    const one = byName(db, { username: 'admin' });
    const two = byName(db, { username: 'nobody' });
    expect(two.sql).toBe(one.sql);
    expect(two.parameters).toEqual(['nobody']);
    expect((await db.executeQuery(one)).rows).toEqual([{ id: 1, username: 'admin' }]);
    expect((await db.executeQuery(two)).rows).toEqual([]);
    const withStatus = byName(db, { username: 'admin', status: 1 });
    expect(withStatus.sql).not.toBe(one.sql);
    expect(withStatus.parameters).toEqual(['admin', 1]);
    expect((await db.executeQuery(byName(db, { username: 'admin', status: 0 }))).rows).toEqual([]);
  });

  it('a build that changes a value instead of passing it fails (tests build both ways)', () => {
    const wrong = compiledOnce((db, a: { username: string }) => db.selectFrom('resellers').select('id').where('username', '=', a.username.toLowerCase()));
    expect(() => wrong(t.database.db, { username: 'ADMIN' })).toThrow(/differs from the one built the usual way/);
  });

  it('with plugins on the handle, builds the usual way so they see the real statement', async () => {
    const sent = await captureQueries(t.database, (db) => db.executeQuery(byName(db, { username: 'captured' })));
    expect(sent.map((q) => q.parameters)).toEqual([['captured']]);
  });
});
