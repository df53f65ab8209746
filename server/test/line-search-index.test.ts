import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../src/domain/auth-user.ts';
import { nowSec } from '../src/lib/clock.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { adminWithPackage, createSignedInReseller } from './fixtures.ts';

// SQLite's search index (FTS5) is kept by triggers, whoever writes the line: a search finds
// exactly the lines that exist, and the index stays whole.

const PASS = 'Search-pass-2026';

describe(`line search index kept with the lines (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let groups: Record<string, number>;

  async function reseller(username: string, credits: number) {
    const { id, token } = await createSignedInReseller(t, admin, { username, password: PASS, type: 'reseller', credits, groups });
    const actor: AuthUser = { id, username, type: 'reseller', credits: 0, sessionId: 0, twoFactorEnabled: false };
    return { id, actor, token };
  }
  const search = async (token: string, term: string) =>
    ((await t.call(token, { method: 'GET', url: `/api/users?text_search=${term}&per=100` })).json().data as { username: string }[]).map((l) => l.username).sort();
  /** FTS5's own check of the index against the lines (it throws when they differ). */
  const indexIsWhole = () => sql`INSERT INTO lines_search (lines_search, rank) VALUES ('integrity-check', 1)`.execute(t.database.db);

  beforeAll(async () => {
    t = await createTestContext();
    ({ admin, groups, pkg } = await adminWithPackage(t, 'Search one'));
  });
  afterAll(() => t?.close());

  it('40 concurrent creations on 20 credits: a search finds exactly the 20 created', async () => {
    const r = await reseller('srch_res1', 20);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.call(r.token, { method: 'POST', url: '/api/users', payload: { package_id: pkg, username: `qzx${String(i).padStart(2, '0')}`, reseller_notes: `note kwv${i}` }, headers: { 'idempotency-key': `s-${i}` } }),
      ),
    );
    const created = results.filter((x) => x.statusCode === 201).map((x) => x.json().username as string).sort();
    expect(created).toHaveLength(20);
    expect(results.filter((x) => x.statusCode === 409).length).toBe(20);
    expect(await search(r.token, 'qzx')).toEqual(created);
    expect(await search(r.token, 'kwv')).toEqual(created); // the notes are indexed too
    if (ENGINE === 'sqlite') await indexIsWhole();
  });

  it.runIf(ENGINE === 'sqlite')('a line written by another connection is indexed by the trigger', async () => {
    const r = await reseller('srch_res4', 0);
    const file = (await sql<{ file: string }>`SELECT file FROM pragma_database_list WHERE name = 'main'`.execute(t.database.db)).rows[0].file;
    const other = new SqliteDatabase(file);
    try {
      other
        .prepare(`INSERT INTO lines (member_id, username, password, package_id, exp_date, created_at, max_connections, is_trial, enabled, bouquet, system) VALUES (?, 'rawvbn', 'pw', ?, ?, ?, 1, 0, 1, '[]', 1)`)
        .run(r.id, pkg, nowSec() + 86_400, nowSec());
    } finally {
      other.close();
    }
    expect(await search(r.token, 'vbn')).toEqual(['rawvbn']);
    await indexIsWhole();
  });
});
