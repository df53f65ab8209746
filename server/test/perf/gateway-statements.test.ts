import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { type Catalogue, seedCatalogue, setBouquet } from '../catalogue-fixtures.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from '../fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from '../helpers.ts';

// How an edge's common question does its work (test/perf/, run by `npm run bench:tests`): a player
// already watching asks about its playlist again, and the panel answers with one statement (the
// edge, the line, the password throttle, the catalogue version and the connection together; the
// stream entitlement kept per catalogue version). What it answers is in test/gateway.test.ts.
describe(`edge question overhead (${ENGINE})`, () => {
  let t: TestContext;
  let statements = 0;
  let counted: Awaited<ReturnType<typeof buildApp>>;
  let cat: Catalogue;
  let key: string;
  let line: { username: string; password: string };

  beforeAll(async () => {
    t = await createTestContext();
    const counter: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements++;
        return args.result;
      },
    };
    counted = await buildApp({ ...t.deps, database: { ...t.database, db: t.database.db.withPlugin(counter) } }, { logger: false });
    await counted.ready();
    const admin = await t.login('admin');
    cat = await seedCatalogue(t, admin);
    const bq = await createBouquet(t, admin, 'Overhead');
    await setBouquet(t, admin, bq, { categories: [cat.categories.News] }, 'Overhead');
    const pkg = await createPackage(t, admin, 'Overhead monthly', bq);
    const groups = await groupIds(t, admin);
    const reseller = await createSignedInReseller(t, admin, { username: 'overhead_res', password: 'Kq7.vX2p_Rz9@tLm', type: 'reseller', credits: 5, groups });
    line = await createLine(t, reseller.token, { package_id: pkg });
    key = (await t.call(admin, { method: 'POST', url: '/api/admin/servers', payload: { name: 'edge-o', url: 'https://edge-o.example' } })).json().key;
  });
  afterAll(async () => {
    await counted?.close();
    await t?.close();
  });

  const ask = () =>
    counted.inject({
      method: 'GET',
      url: '/gateway/auth',
      headers: { 'x-edge-key': key, 'x-original-uri': `/live/${line.username}/${line.password}/${cat.streams['News One']}.m3u8`, 'x-real-ip': '198.51.100.7', 'user-agent': 'TiviMate/4.7' },
    });

  it("answers an open connection's question with one statement", async () => {
    expect((await ask()).statusCode).toBe(204); // admitted: a transaction
    expect((await ask()).statusCode).toBe(204); // open: the stream's entitlement is kept
    statements = 0;
    for (let i = 0; i < 5; i++) expect((await ask()).statusCode).toBe(204);
    expect(statements).toBe(5);
  });
});
