import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminWithPackage, createSignedInReseller } from '../fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from '../helpers.ts';

// How fast the write path refuses a spend whose reseller row (PostgreSQL) or the write lock
// (SQLite) is held elsewhere, and how long other resellers' spends take meanwhile. What they
// answer (503 BUSY, nothing changed, the others' 201s) is in test/write-path.test.ts.

const PASS = 'Write-pass-2026';

describe(`write path: time to refuse a held spend (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let groups: Record<string, number>;

  const reseller = (username: string, credits: number) => createSignedInReseller(t, admin, { username, password: PASS, type: 'reseller', credits, groups });
  /** a paid line creation and its ms */
  const timed = async (token: string, key: string) => {
    const started = performance.now();
    const res = await t.call(token, { method: 'POST', url: '/api/users', payload: { package_id: pkg }, headers: { 'idempotency-key': key } });
    return { res, ms: performance.now() - started };
  };

  beforeAll(async () => {
    t = await createTestContext();
    ({ admin, groups, pkg } = await adminWithPackage(t));
  });
  afterAll(() => t?.close());

  it.runIf(ENGINE === 'postgres')('a held reseller row: its spends fail within 2 s; other resellers take no longer than usual', async () => {
    const held = await reseller('wpp_held', 5);
    const other = await reseller('wpp_free', 50);
    // usual latency of 10 spends at once (one reseller's spends queue on its own balance), before the row is held
    const usual = (await Promise.all(Array.from({ length: 10 }, (_, i) => timed(other.token, `free-before-${i}`)))).map((f) => f.ms);
    const holder = new pg.Client({ connectionString: t.deps.config.databaseUrl });
    await holder.connect();
    const heldSince = performance.now();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM resellers WHERE id = $1 FOR UPDATE', [held.id]);
      const [blocked, ...free] = await Promise.all([timed(held.token, 'held-1'), ...Array.from({ length: 10 }, (_, i) => timed(other.token, `free-during-${i}`))]);
      const slowest = Math.max(...free.map((f) => f.ms));
      const again = await timed(held.token, 'held-1');
      console.log(`refused in ${blocked.ms.toFixed(0)} ms, again in ${again.ms.toFixed(0)} ms; others' slowest ${slowest.toFixed(0)} ms (usual ${Math.max(...usual).toFixed(0)} ms)`);
      expect([blocked.res.statusCode, ...free.map((f) => f.res.statusCode), again.res.statusCode]).toEqual([503, ...Array(10).fill(201), 503]);
      expect(blocked.ms, 'failed within 2 s').toBeLessThan(2_000);
      expect(slowest, 'other resellers did not wait for the held row').toBeLessThan(Math.max(1_500, 3 * Math.max(...usual)));
      expect(again.ms, 'a retry failed within 2 s').toBeLessThan(2_000);
      expect(performance.now() - heldSince, 'all of it while the row was held').toBeLessThan(10_000);
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
  });

  it.runIf(ENGINE === 'sqlite')('the write lock held by another connection: a spend fails within 2 s', async () => {
    const r = await reseller('wpp_locked', 5);
    const holder = new SqliteDatabase(t.deps.config.databaseUrl.slice('sqlite:'.length));
    try {
      holder.exec('BEGIN IMMEDIATE');
      const { res, ms } = await timed(r.token, 'locked-1');
      console.log(`refused in ${ms.toFixed(0)} ms`);
      expect(res.statusCode, res.body).toBe(503);
      expect(ms, 'failed within 2 s').toBeLessThan(2_000);
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
  });
});
