import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connection.ts';
import { groupStats, onceBeforeCommit, withTx } from '../src/db/tx.ts';
import type { AuthUser } from '../src/modules/auth/service.ts';
import { changeCredits } from '../src/modules/resellers/credits.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { balanceOf, createBouquet, createPackage, groupIds, ledgerSumOf } from './fixtures.ts';

// PostgreSQL group commit for spends (db/tx.ts, shareTransaction): operations that arrive together
// run interleaved in one transaction on a pipelined connection and share one COMMIT; when any of
// them fails, nothing of the group is kept and each runs again in a transaction of its own.

const PASS = 'Shared-pass-2026';
const shared = { shareTransaction: { resellerIds: [] as number[] } };

describe.runIf(ENGINE === 'postgres')('spends sharing one PostgreSQL transaction', () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let groups: Record<string, number>;

  async function reseller(username: string, group: string, credits: number) {
    const res = await t.call(admin, { method: 'POST', url: '/api/resellers', payload: { username, password: PASS, member_group_id: groups[group], credits } });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().id as number, token: await t.login(username, PASS) };
  }
  const create = (token: string, payload: object, key?: string) =>
    t.call(token, { method: 'POST', url: '/api/users', payload, headers: key ? { 'idempotency-key': key } : {} });
  const linesOf = async (id: number) => Number((await t.database.db.selectFrom('lines').select((eb) => eb.fn.countAll().as('n')).where('member_id', '=', id).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    groups = await groupIds(t, admin);
    pkg = await createPackage(t, admin, 'One credit', await createBouquet(t, admin, 'All'), {});
    await sql`CREATE TABLE shared_probe (note text PRIMARY KEY)`.execute(t.database.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('operations that arrive together commit together, and none is answered before the COMMIT', async () => {
    const before = { ...groupStats };
    const seen: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        withTx(t.database, async (trx) => {
          await sql`INSERT INTO shared_probe VALUES (${`together-${i}`})`.execute(trx);
          return i;
        }, shared).then((v) => {
          seen.push(v);
          return v;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(groupStats.operations - before.operations).toBe(12);
    expect(groupStats.groups - before.groups, 'fewer commits than operations').toBeLessThan(12);
    const n = await sql<{ n: string }>`SELECT count(*) AS n FROM shared_probe WHERE note LIKE 'together-%'`.execute(t.database.db);
    expect(Number(n.rows[0].n)).toBe(12);
  });

  it('one failing operation fails alone: the others run again on their own and are kept', async () => {
    const before = { ...groupStats };
    const runs = new Map<number, number>();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        withTx(t.database, async (trx) => {
          runs.set(i, (runs.get(i) ?? 0) + 1);
          await sql`INSERT INTO shared_probe VALUES (${`alone-${i}`})`.execute(trx);
          if (i === 3) throw new Error('operation 3 fails');
          return i;
        }, shared),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[3] as PromiseRejectedResult).reason.message).toBe('operation 3 fails');
    const kept = await sql<{ note: string }>`SELECT note FROM shared_probe WHERE note LIKE 'alone-%' ORDER BY note`.execute(t.database.db);
    expect(kept.rows.map((r) => r.note)).toEqual(['alone-0', 'alone-1', 'alone-2', 'alone-4', 'alone-5']);
    expect(groupStats.groups - before.groups, 'the others committed together in the next group').toBe(1);
    expect(groupStats.operations - before.operations).toBe(5);
    expect([...runs.values()], 'each ran twice: together, then again').toEqual([2, 2, 2, 2, 2, 2]);
  });

  it('a reseller row held by a long transaction holds up only the operations that need it', async () => {
    const a = await reseller('sh_lock_a', 'reseller', 5);
    const b = await reseller('sh_lock_b', 'reseller', 5);
    const holder = new pg.Client({ connectionString: t.deps.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM resellers WHERE id = $1 FOR NO KEY UPDATE', [a.id]);
      const started = performance.now();
      const took: Record<string, number> = {};
      const run = (name: string, id: number) =>
        withTx(t.database, (trx) => sql`UPDATE resellers SET credits = credits - 1 WHERE id = ${id}`.execute(trx), { shareTransaction: { resellerIds: [id] } }).then(() => {
          took[name] = performance.now() - started;
        });
      const both = Promise.all([run('a', a.id), run('b', b.id)]);
      await new Promise((r) => setTimeout(r, 1500));
      expect(took.b, 'b did not wait for a\'s row').toBeLessThan(1000);
      expect(took.a, 'a waits for its row').toBeUndefined();
      await holder.query('COMMIT');
      await both;
      expect(took.a).toBeGreaterThan(1400);
      expect(await balanceOf(t.database.db, a.id)).toBe(4);
      expect(await balanceOf(t.database.db, b.id)).toBe(4);
    } finally {
      await holder.end();
    }
  });

  it('a lane takes a new connection after 1,000 transactions (named statements planned again for the tables as they are)', async () => {
    const pids = new Set<number>();
    for (let i = 0; i < 1001; i++) {
      pids.add(await withTx(t.database, async (trx) => (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx)).rows[0].pid, shared));
    }
    expect(pids.size).toBeGreaterThanOrEqual(2);
  });

  it('a statement PostgreSQL refuses (a taken key) fails only its own operation', async () => {
    const results = await Promise.allSettled(
      ['dup', 'dup', 'other'].map((note) => withTx(t.database, (trx) => sql`INSERT INTO shared_probe VALUES (${`key-${note}`})`.execute(trx), shared)),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    const kept = await sql<{ note: string }>`SELECT note FROM shared_probe WHERE note LIKE 'key-%' ORDER BY note`.execute(t.database.db);
    expect(kept.rows.map((r) => r.note)).toEqual(['key-dup', 'key-other']);
  });

  it('work before the COMMIT runs once per key, in the same transaction', async () => {
    let ran = 0;
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        withTx(t.database, async (trx) => {
          await sql`INSERT INTO shared_probe VALUES (${`once-${i}`})`.execute(trx);
          await onceBeforeCommit(trx, 'once', async (c) => {
            ran++;
            await sql`INSERT INTO shared_probe VALUES (${`once-stamp-${ran}`})`.execute(c);
          });
        }, shared),
      ),
    );
    expect(ran).toBeGreaterThanOrEqual(1);
    expect(ran).toBeLessThan(5);
    const stamps = await sql<{ n: string }>`SELECT count(*) AS n FROM shared_probe WHERE note LIKE 'once-stamp-%'`.execute(t.database.db);
    expect(Number(stamps.rows[0].n)).toBe(ran);
  });

  it('a lane whose connection was killed reconnects; the group in flight runs again on its own', async () => {
    const db = t.database.db;
    // The lane's backend is the one connection that ran the probe inserts above in pipeline mode;
    // kill every other backend of this database except the pool's current one.
    const killer = withTx(t.database, async (trx) => {
      await sql`INSERT INTO shared_probe VALUES ('kill-1')`.execute(trx);
      await sql`SELECT pg_terminate_backend(pg_backend_pid())`.execute(trx);
    }, shared);
    await expect(killer).rejects.toThrow();
    const after = await Promise.all(['kill-2', 'kill-3'].map((note) => withTx(t.database, (trx) => sql`INSERT INTO shared_probe VALUES (${note})`.execute(trx), shared)));
    expect(after).toHaveLength(2);
    const kept = await sql<{ note: string }>`SELECT note FROM shared_probe WHERE note LIKE 'kill-%' ORDER BY note`.execute(db);
    expect(kept.rows.map((r) => r.note)).toEqual(['kill-2', 'kill-3']);
  });

  it('a lane killed while it waits with the next transaction begun: the next group begins one on the new connection', async () => {
    const db = t.database.db;
    await withTx(t.database, (trx) => sql`INSERT INTO shared_probe VALUES ('idle-1')`.execute(trx), shared);
    // After a COMMIT the lane sends the next group's BEGIN at once: it waits "idle in transaction".
    let waiting: { pid: number }[] = [];
    for (let i = 0; i < 50 && waiting.length === 0; i++) {
      waiting = (await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`.execute(db)).rows;
      if (waiting.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(waiting, 'the lane waits with its next transaction begun').toHaveLength(1);
    await sql`SELECT pg_terminate_backend(${waiting[0].pid})`.execute(db);
    await new Promise((r) => setTimeout(r, 100));
    // Both statements must be inside one transaction on the new connection: the second fails, and
    // the first must not be kept (it would be, run outside a transaction).
    const failing = withTx(t.database, async (trx) => {
      await sql`INSERT INTO shared_probe VALUES ('idle-2')`.execute(trx);
      await sql`INSERT INTO shared_probe VALUES ('idle-1')`.execute(trx);
    }, shared);
    await expect(failing).rejects.toThrow(/duplicate key/);
    await withTx(t.database, (trx) => sql`INSERT INTO shared_probe VALUES ('idle-3')`.execute(trx), shared);
    const kept = await sql<{ note: string }>`SELECT note FROM shared_probe WHERE note LIKE 'idle-%' ORDER BY note`.execute(db);
    expect(kept.rows.map((r) => r.note)).toEqual(['idle-1', 'idle-3']);
    // A transaction begun ahead that no group takes is ended soon after.
    await new Promise((r) => setTimeout(r, 400));
    const left = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`.execute(db);
    expect(left.rows, 'no session left idle in transaction').toHaveLength(0);
  });

  it('two processes\' groups spending from the same masters in opposite orders: no deadlock, exact', async () => {
    // A second handle on the database has a lane of its own, like a second worker (WORKERS=2).
    const other = openDatabase(t.deps.config.databaseUrl);
    const deps = [t.deps, { ...t.deps, database: other }];
    try {
      const masters: { id: number; actor: AuthUser; target: number }[] = [];
      for (const name of ['sh_x', 'sh_y']) {
        const m = await reseller(name, 'master', 1000);
        const res = await t.call(m.token, { method: 'POST', url: '/api/resellers', payload: { username: `${name}_t`, password: PASS, member_group_id: groups.reseller } });
        expect(res.statusCode, res.body).toBe(201);
        masters.push({ id: m.id, actor: { id: m.id, username: name, type: 'master', credits: 0, sessionId: 0, twoFactorEnabled: false }, target: res.json().id });
      }
      const deadlocks = async () => Number((await sql<{ n: string }>`SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()`.execute(t.database.db)).rows[0].n);
      const before = await deadlocks();
      const rounds = 25;
      const started = performance.now();
      for (let round = 0; round < rounds; round++) {
        // Each process's group spends from x and y, one in each order.
        await Promise.all(
          deps.flatMap((d, p) => (p === 0 ? masters : [...masters].reverse()).map((m) => changeCredits(d, m.actor, m.target, 1, `cross-${round}-${p}-${m.id}`))),
        );
      }
      const took = performance.now() - started;
      expect(await deadlocks(), 'no deadlock between the two lanes').toBe(before);
      expect(took, 'no group waited out a deadlock timeout').toBeLessThan(rounds * 200);
      for (const m of masters) {
        expect(await balanceOf(t.database.db, m.id)).toBe(1000 - 2 * rounds);
        expect(await ledgerSumOf(t.database.db, m.id)).toBe(1000 - 2 * rounds);
        expect(await balanceOf(t.database.db, m.target)).toBe(2 * rounds);
      }
    } finally {
      await other.close();
    }
  });

  it('concurrent paid creations through the API: exactly the affordable ones, each charged once', async () => {
    const r = await reseller('sh_res1', 'reseller', 7);
    const answers = await Promise.all(Array.from({ length: 20 }, () => create(r.token, { package_id: pkg })));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(7);
    expect(answers.filter((a) => a.statusCode === 409).map((a) => a.json().code)).toEqual(Array(13).fill('INSUFFICIENT_CREDITS'));
    expect(await balanceOf(t.database.db, r.id)).toBe(0);
    expect(await ledgerSumOf(t.database.db, r.id)).toBe(0);
    expect(await linesOf(r.id)).toBe(7);
  });

  it('one username asked twice in one group: one line, one charge, the other told it is taken', async () => {
    const r = await reseller('sh_res2', 'reseller', 10);
    const answers = await Promise.all([create(r.token, { package_id: pkg, username: 'sharedname1' }), create(r.token, { package_id: pkg, username: 'sharedname1' }), create(r.token, { package_id: pkg })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 409]);
    expect(await balanceOf(t.database.db, r.id)).toBe(8);
    expect(await ledgerSumOf(t.database.db, r.id)).toBe(8);
  });

  it('one Idempotency-Key sent three times at once: one line, one charge, the same answer', async () => {
    const r = await reseller('sh_res3', 'reseller', 10);
    const answers = await Promise.all([1, 2, 3].map(() => create(r.token, { package_id: pkg }, 'shared-key-1')));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(await balanceOf(t.database.db, r.id)).toBe(9);
    expect(await linesOf(r.id)).toBe(1);
  });

  it('concurrent transfers from one master: exact, with every answer the target\'s balance after its own transfer', async () => {
    const m = await reseller('sh_master', 'master', 30);
    const targets: number[] = [];
    for (const i of [1, 2, 3]) {
      const res = await t.call(m.token, { method: 'POST', url: '/api/resellers', payload: { username: `sh_t${i}`, password: PASS, member_group_id: groups.reseller } });
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
});
