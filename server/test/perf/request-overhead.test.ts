import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createSignedInReseller, groupIds } from '../fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from '../helpers.ts';

// How a signed-in request does its work, not what it answers (so test/perf/, run by
// `npm run bench:tests`, not by the normal suite): its own work is one statement (the session, its
// reseller and the 2FA flag together), so the profile the web app asks for on every page costs one
// round trip; a master's line list asks no tree depth. What the session check answers is in
// test/session-check.test.ts.
describe(`signed-in request overhead (${ENGINE})`, () => {
  let t: TestContext;
  let statements: string[] = [];
  /** the SQL of statements built by the query builder (a statement compiled once is not seen here) */
  let built: string[] = [];
  let counted: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    t = await createTestContext();
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        built.push(t.database.db.getExecutor().compileQuery(args.node, args.queryId).sql);
        return args.node;
      },
      transformResult: async (args) => {
        statements.push(String(args.queryId.queryId));
        return args.result;
      },
    };
    // The same database, seen through a plugin that counts every statement the app runs.
    counted = await buildApp({ ...t.deps, database: { ...t.database, db: t.database.db.withPlugin(counter) } }, { logger: false });
    await counted.ready();
  });
  afterAll(async () => {
    await counted?.close();
    await t?.close();
  });

  const profile = (token: string) => counted.inject({ method: 'GET', url: '/api/profile', headers: { authorization: `Bearer ${token}` } });

  it('answers /api/profile with one statement, the same statement every time', async () => {
    const token = await t.login('admin');
    await profile(token); // the first request may also refresh last_seen_at
    statements = [];
    for (let i = 0; i < 3; i++) {
      const res = await profile(token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ username: 'admin', two_factor_enabled: false, two_factor_required: false });
    }
    expect(statements).toHaveLength(3);
  });

  it("knows with the session whether a master is top-level: its line list asks no tree depth", async () => {
    const admin = await t.login('admin');
    const groups = await groupIds(t, admin);
    const make = async (token: string, username: string, type: 'master' | 'reseller') =>
      (await createSignedInReseller(t, token, { username, password: 'Pass-word-2026!', type, credits: 5, groups })).token;
    const master = await make(admin, 'topmaster', 'master');
    const under = await make(master, 'underreseller', 'reseller');
    const usersOf = async (token: string) => {
      built = [];
      const res = await counted.inject({ method: 'GET', url: '/api/users', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, res.body).toBe(200);
      return built.filter((q) => /max\("?rt"?\."?depth|max\("?depth/i.test(q));
    };
    expect(await usersOf(master)).toEqual([]);
    expect(await usersOf(under)).toEqual([]);
  });
});
