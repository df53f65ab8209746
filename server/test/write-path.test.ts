import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connection.ts';
import type { AuthUser } from '../src/domain/auth-user.ts';
import { changeCredits } from '../src/modules/resellers/credits.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { adminWithPackage, balanceOf, createSignedInReseller, ledgerSumOf } from './fixtures.ts';

// The write path through the API, one transaction per request: concurrent spends stay exact, one
// Idempotency-Key gives one charge however many times it is sent at once, and a row (PostgreSQL) or
// the write lock (SQLite) held elsewhere makes the spends that need it fail with 503 BUSY,
// changing nothing, while (PostgreSQL) other resellers' spends go through.

const PASS = 'Write-pass-2026';

describe(`write path: one transaction per request (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let groups: Record<string, number>;

  async function reseller(username: string, group: string, credits: number) {
    return createSignedInReseller(t, admin, { username, password: PASS, type: group as 'master' | 'reseller', credits, groups });
  }
  const create = (token: string, payload: object, key?: string) =>
    t.call(token, { method: 'POST', url: '/api/users', payload, headers: key ? { 'idempotency-key': key } : {} });
  const linesOf = async (id: number) => Number((await t.database.db.selectFrom('lines').select((eb) => eb.fn.countAll().as('n')).where('member_id', '=', id).executeTakeFirstOrThrow()).n);
  const ledgerRowsOf = async (id: number) => Number((await t.database.db.selectFrom('credit_ledger').select((eb) => eb.fn.countAll().as('n')).where('reseller_id', '=', id).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestContext();
    ({ admin, groups, pkg } = await adminWithPackage(t));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('concurrent paid creations: exactly the affordable ones, each charged once', async () => {
    const r = await reseller('wp_res1', 'reseller', 7);
    const answers = await Promise.all(Array.from({ length: 20 }, () => create(r.token, { package_id: pkg })));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(7);
    expect(answers.filter((a) => a.statusCode === 409).map((a) => a.json().code)).toEqual(Array(13).fill('INSUFFICIENT_CREDITS'));
    expect(await balanceOf(t.database.db, r.id)).toBe(0);
    expect(await ledgerSumOf(t.database.db, r.id)).toBe(0);
    expect(await linesOf(r.id)).toBe(7);
  });

  it('one username asked twice at once: one line, one charge, the other told it is taken', async () => {
    const r = await reseller('wp_res2', 'reseller', 10);
    const answers = await Promise.all([create(r.token, { package_id: pkg, username: 'wpname1' }), create(r.token, { package_id: pkg, username: 'wpname1' }), create(r.token, { package_id: pkg })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 409]);
    expect(await balanceOf(t.database.db, r.id)).toBe(8);
    expect(await ledgerSumOf(t.database.db, r.id)).toBe(8);
  });

  it('50 concurrent requests with one Idempotency-Key: one line, one charge, 49 replays of the same answer; another body is a 422', async () => {
    const r = await reseller('wp_res3', 'reseller', 10);
    const answers = await Promise.all(Array.from({ length: 50 }, () => create(r.token, { package_id: pkg, reseller_notes: 'fifty' }, 'fifty-key')));
    expect(answers.filter((a) => a.statusCode !== 201).map((a) => a.body)).toEqual([]);
    const bodies = answers.map((a) => a.json());
    expect(new Set(bodies.map((b) => b.id)).size, 'one line').toBe(1);
    expect(bodies.every((b) => JSON.stringify(b) === JSON.stringify(bodies[0])), 'the same answer').toBe(true);
    // the 49 replays say so, the first answer does not
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(49);
    expect(await linesOf(r.id)).toBe(1);
    expect(await ledgerRowsOf(r.id), 'one charge (and the initial credit)').toBe(2);
    expect(await balanceOf(t.database.db, r.id)).toBe(9);
    expect(await ledgerSumOf(t.database.db, r.id)).toBe(9);
    const other = await create(r.token, { package_id: pkg, reseller_notes: 'another body' }, 'fifty-key');
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await balanceOf(t.database.db, r.id)).toBe(9);
  });

  it("concurrent transfers from one master: exact, every answer the target's balance after its own transfer", async () => {
    const m = await reseller('wp_master', 'master', 30);
    const targets: number[] = [];
    for (const i of [1, 2, 3]) {
      const res = await t.call(m.token, { method: 'POST', url: '/api/resellers', payload: { username: `wp_t${i}`, password: PASS, member_group_id: groups.reseller } });
      expect(res.statusCode, res.body).toBe(201);
      targets.push(res.json().id);
    }
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => t.call(m.token, { method: 'POST', url: `/api/resellers/${targets[i % 3]}/credits`, payload: { value: 1 } })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(30);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(10);
    expect(await balanceOf(t.database.db, m.id)).toBe(0);
    expect(await ledgerSumOf(t.database.db, m.id)).toBe(0);
    let received = 0;
    for (const id of targets) {
      const balance = await balanceOf(t.database.db, id);
      received += balance;
      expect(await ledgerSumOf(t.database.db, id)).toBe(balance);
      const theirs = answers.filter((a, i) => a.statusCode === 200 && targets[i % 3] === id).map((a) => a.json().credits as number);
      expect(theirs.sort((a, b) => a - b), 'each answer a distinct balance').toEqual(Array.from({ length: theirs.length }, (_, k) => k + 1));
    }
    expect(received).toBe(30);
  });

  it.runIf(ENGINE === 'postgres')('a reseller row held elsewhere: its spends fail with 503 BUSY while it is held and change nothing; other resellers spend meanwhile', async () => {
    // Everything in the try block is answered while the row is held: the holder lets go only in
    // `finally`. How soon the refusal comes and how long the others take is measured in
    // test/perf/write-path-busy.test.ts.
    const held = await reseller('wp_held', 'reseller', 5);
    const other = await reseller('wp_free', 'reseller', 50);
    for (let i = 0; i < 10; i++) expect((await create(other.token, { package_id: pkg }, `free-before-${i}`)).statusCode).toBe(201);
    const holder = new pg.Client({ connectionString: t.deps.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM resellers WHERE id = $1 FOR UPDATE', [held.id]);
      const [blocked, ...free] = await Promise.all([create(held.token, { package_id: pkg }, 'held-1'), ...Array.from({ length: 10 }, (_, i) => create(other.token, { package_id: pkg }, `free-during-${i}`))]);
      expect(blocked.statusCode, blocked.body).toBe(503);
      expect(blocked.json().code).toBe('BUSY');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(free.map((f) => f.statusCode), 'the other reseller did not wait for the held row').toEqual(Array(10).fill(201));
      // a retry while the row is still held is refused again
      const again = await create(held.token, { package_id: pkg }, 'held-1');
      expect(again.statusCode, again.body).toBe(503);
      expect(again.json().code).toBe('BUSY');
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    expect(await balanceOf(t.database.db, held.id), 'nothing changed').toBe(5);
    expect(await ledgerSumOf(t.database.db, held.id)).toBe(5);
    expect(await linesOf(held.id)).toBe(0);
    // released: the retry with the same key goes through, once
    const retried = await create(held.token, { package_id: pkg }, 'held-1');
    expect(retried.statusCode, retried.body).toBe(201);
    expect(await balanceOf(t.database.db, held.id)).toBe(4);
    expect(await balanceOf(t.database.db, other.id)).toBe(30);
    expect(await ledgerSumOf(t.database.db, other.id)).toBe(30);
  });

  it.runIf(ENGINE === 'sqlite')('the write lock held by another connection: a spend fails with 503 BUSY while it is held and changes nothing; it goes through once released', async () => {
    // SQLite has one write lock for the whole database: while another process holds it, every
    // write waits for it (up to the busy timeout), whoever the reseller. The answer below comes
    // while the lock is held (released only in `finally`); how soon, test/perf/write-path-busy.test.ts.
    const r = await reseller('wp_locked', 'reseller', 5);
    const holder = new SqliteDatabase(t.deps.config.databaseUrl.slice('sqlite:'.length));
    try {
      holder.exec('BEGIN IMMEDIATE');
      const res = await create(r.token, { package_id: pkg }, 'locked-1');
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('BUSY');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // reads go on meanwhile (WAL)
      expect((await t.call(r.token, { method: 'GET', url: '/api/users' })).statusCode).toBe(200);
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    expect(await balanceOf(t.database.db, r.id), 'nothing changed').toBe(5);
    expect(await linesOf(r.id)).toBe(0);
    const retried = await create(r.token, { package_id: pkg }, 'locked-1');
    expect(retried.statusCode, retried.body).toBe(201);
    expect(await balanceOf(t.database.db, r.id)).toBe(4);
    expect(await ledgerSumOf(t.database.db, r.id)).toBe(4);
  });

  it.runIf(ENGINE === 'postgres')("two processes spending from the same masters in opposite orders: no deadlock, exact", async () => {
    // A second handle on the database, like a second worker (WORKERS=2).
    const other = openDatabase(t.deps.config.databaseUrl);
    const deps = [t.deps, { ...t.deps, database: other }];
    try {
      const masters: { id: number; actor: AuthUser; target: number }[] = [];
      for (const name of ['wp_x', 'wp_y']) {
        const m = await reseller(name, 'master', 1000);
        const res = await t.call(m.token, { method: 'POST', url: '/api/resellers', payload: { username: `${name}_t`, password: PASS, member_group_id: groups.reseller } });
        expect(res.statusCode, res.body).toBe(201);
        masters.push({ id: m.id, actor: { id: m.id, username: name, type: 'master', credits: 0, sessionId: 0, twoFactorEnabled: false }, target: res.json().id });
      }
      const deadlocks = async () => Number((await sql<{ n: string }>`SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()`.execute(t.database.db)).rows[0].n);
      const before = await deadlocks();
      const rounds = 25;
      for (let round = 0; round < rounds; round++) {
        await Promise.all(
          deps.flatMap((d, p) => (p === 0 ? masters : [...masters].reverse()).map((m) => changeCredits(d, m.actor, m.target, 1, `cross-${round}-${p}-${m.id}`))),
        );
      }
      expect(await deadlocks(), 'no deadlock').toBe(before);
      for (const m of masters) {
        expect(await balanceOf(t.database.db, m.id)).toBe(1000 - 2 * rounds);
        expect(await ledgerSumOf(t.database.db, m.id)).toBe(1000 - 2 * rounds);
        expect(await balanceOf(t.database.db, m.target)).toBe(2 * rounds);
      }
    } finally {
      await other.close();
    }
  });
});
