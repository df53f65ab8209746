import { randomBytes, randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connection.ts';
import { ENGINE } from './helpers.ts';
import { keptCountsMismatches } from './kept-counts-check.ts';
import { ledgerProblems } from './security/state.ts';
import { type FreshDatabase, ServerProcess, freePort, freshDatabase } from './security/server-process.ts';
import { STRONG_PASSWORD } from './security/world.ts';

// Crash safety: the real server process under concurrent credit operations (transfers, line
// creations, renewals, each with an Idempotency-Key, some retried after the crash) is killed with
// SIGKILL at random moments and restarted. Afterwards every balance equals its ledger, no balance
// is negative, no line exists without its charge and no charge without its line, no answer the
// server gave before dying was lost, and the dashboard's kept counts still equal a scan.
// CRASH_KILLS (default 3) sets the number of kills; `npm run crash` runs 20 per engine.

const KILLS = Number(process.env.CRASH_KILLS ?? 3);
const WORKERS = 8;
const ADMIN_PASSWORD = 'crash-admin-pass-123';

interface Actor {
  id: number;
  token: string;
  lines: number[];
}

interface Sent {
  path: string;
  body: unknown;
  key: string;
  token: string;
}

describe(`crash safety under SIGKILL (${ENGINE})`, () => {
  let db: FreshDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    db = await freshDatabase('panel_crash');
    server = new ServerProcess(await freePort(), { DATABASE_URL: db.url, ADMIN_PASSWORD, DASHBOARD_CACHE_SECONDS: '0' });
    await server.start();
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db?.drop();
  });

  async function api(token: string | null, method: string, path: string, body?: unknown, key?: string) {
    const res = await fetch(`${server.base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { 'idempotency-key': key } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, json: () => JSON.parse(text), text };
  }

  async function must(token: string | null, method: string, path: string, body?: unknown) {
    const res = await api(token, method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${res.text}`);
    return res.json();
  }

  it(`keeps the ledger whole across ${KILLS} SIGKILLs under load`, { timeout: 120_000 + KILLS * 30_000 }, async () => {
    // ---- set-up through the API: a master with credits, resellers, two packages ----
    const admin = (await must(null, 'POST', '/api/auth/sign-in', { username: 'admin', password: ADMIN_PASSWORD })).token as string;
    const groups: Record<string, number> = {};
    for (const g of (await must(admin, 'GET', '/api/datacomplements')).groups) groups[g.type] ??= g.group_id;
    const bouquet = (await must(admin, 'POST', '/api/admin/bouquets', { bouquet_name: 'crash' })).id;
    const pkg = (name: string, credits: number) =>
      must(admin, 'POST', '/api/admin/packages', {
        package_name: name,
        is_trial: 0,
        is_official: 1,
        max_connections: 1,
        official_credits: credits,
        official_duration: 1,
        official_duration_in: 'months',
        trial_credits: 0,
        trial_duration: 24,
        trial_duration_in: 'hours',
        bouquets: [String(bouquet)],
      });
    const packages = [(await pkg('one credit', 1)).id as number, (await pkg('two credits', 2)).id as number];
    const signIn = async (username: string) => (await must(null, 'POST', '/api/auth/sign-in', { username, password: STRONG_PASSWORD })).token as string;
    const tag = randomBytes(3).toString('hex');
    const masterRow = await must(admin, 'POST', '/api/resellers', { username: `crash_master_${tag}`, password: STRONG_PASSWORD, member_group_id: groups.master, credits: 100_000 });
    const master: Actor = { id: masterRow.id, token: await signIn(`crash_master_${tag}`), lines: [] };
    const resellers: Actor[] = [];
    for (let i = 0; i < 4; i++) {
      const username = `crash_res${i}_${tag}`;
      const r = await must(master.token, 'POST', '/api/resellers', { username, password: STRONG_PASSWORD, member_group_id: groups.reseller, credits: 40 });
      resellers.push({ id: r.id, token: await signIn(username), lines: [] });
    }
    const spenders = [master, ...resellers];

    // ---- load: workers loop until told to stop; a request cut by the kill may be retried with its key ----
    const answers: Record<string, number> = {};
    let sent = 0;
    let cut = 0;
    let retried = 0;
    let stopping = false;
    let up = Promise.resolve();
    let markUp = () => {};
    /** keys whose request got a 2xx: what the server promised, which must survive the crash */
    const acknowledged: { key: string; actor: number; path: string }[] = [];
    const retries: Sent[] = [];
    const serverErrors: string[] = [];

    const operation = (): Sent & { actor: Actor } => {
      const roll = Math.random();
      const key = `k-${randomBytes(8).toString('hex')}`;
      if (roll < 0.35) {
        const to = resellers[randomInt(resellers.length)];
        return { actor: master, token: master.token, path: `/api/resellers/${to.id}/credits`, body: { value: randomInt(1, 4) }, key };
      }
      const actor = spenders[randomInt(spenders.length)];
      if (roll < 0.7 || actor.lines.length === 0) return { actor, token: actor.token, path: '/api/users', body: { package_id: packages[randomInt(2)] }, key };
      const line = actor.lines[randomInt(actor.lines.length)];
      return { actor, token: actor.token, path: `/api/users/${line}/renew`, body: { package_id: packages[randomInt(2)] }, key };
    };

    const worker = async () => {
      while (!stopping) {
        await up;
        if (stopping) break;
        const retry = retries.shift();
        const op = retry ? { ...retry, actor: [master, ...spenders].find((a) => a.token === retry.token) as Actor } : operation();
        if (retry) retried++;
        sent++;
        try {
          const res = await api(op.token, 'POST', op.path, op.body, op.key);
          answers[res.status] = (answers[res.status] ?? 0) + 1;
          if (res.status < 300) {
            acknowledged.push({ key: op.key, actor: op.actor.id, path: op.path });
            if (op.path === '/api/users') op.actor.lines.push(res.json().id);
          }
          // 503 BUSY is the documented "nothing was changed, try again" (a lock not granted within
          // LOCK_TIMEOUT_MS, which a loaded machine can reach): a client retries it with the same key,
          // as it does a cut connection. Any other 5xx is a bug.
          if (res.status === 503 && res.json().code === 'BUSY') retries.push({ path: op.path, body: op.body, key: op.key, token: op.token });
          else if (res.status >= 500) serverErrors.push(`${op.path} -> ${res.status} ${res.text}`);
        } catch {
          cut++; // connection refused or reset: the server is down
          if (Math.random() < 0.5) retries.push({ path: op.path, body: op.body, key: op.key, token: op.token });
          await up;
        }
      }
    };

    /** Waits until the load has had `n` answers acknowledged (a loaded machine restarts slowly), at most 30 s. */
    const acknowledgedAtLeast = async (n: number) => {
      for (const until = Date.now() + 30_000; acknowledged.length < n && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
    };
    const load = Array.from({ length: WORKERS }, worker);
    for (let k = 0; k < KILLS; k++) {
      await acknowledgedAtLeast((k + 1) * 6);
      // the kill falls at a random point of the load: after 0 to 5 more answers
      await acknowledgedAtLeast(acknowledged.length + randomInt(0, 6));
      up = new Promise<void>((r) => {
        markUp = r;
      });
      const exit = await server.stop('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      await server.start();
      markUp();
    }
    // the load runs on against the last restart: answers acknowledged by the new process
    await acknowledgedAtLeast(acknowledged.length + 6);
    stopping = true;
    markUp();
    await Promise.all(load);
    await server.stop('SIGKILL');
    if (process.env.CRASH_VERBOSE) console.log(server.output.join('\n'));

    // ---- the invariants, read straight from the database ----
    const database = openDatabase(db.url);
    try {
      const dbx = database.db;
      const ledger = await ledgerProblems(dbx);
      const chargesWithoutLine = await dbx
        .selectFrom('credit_ledger as c')
        .leftJoin('lines as l', 'l.id', 'c.line_id')
        .select(['c.id', 'c.reason', 'c.line_id'])
        .where((eb) => eb.or([eb('c.reason', 'like', 'line%'), eb('c.line_id', 'is not', null)]))
        .where('l.id', 'is', null)
        .execute();
      const linesWithoutCharge = await dbx
        .selectFrom('lines as l')
        .innerJoin('resellers as r', 'r.id', 'l.member_id')
        .innerJoin('groups as g', 'g.group_id', 'r.member_group_id')
        .select(['l.id', 'l.member_id'])
        .where('l.is_trial', '=', 0)
        .where('g.type', '!=', 'admin')
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('credit_ledger as c').select('c.id').whereRef('c.line_id', '=', 'l.id').where('c.reason', '=', 'line_create').where('c.delta', '<', 0))),
        )
        .execute();
      const doubleCharges = await dbx
        .selectFrom('credit_ledger')
        .select(['reseller_id', 'idempotency_key', 'reason', (eb) => eb.fn.countAll<number>().as('n')])
        .where('idempotency_key', 'is not', null)
        .groupBy(['reseller_id', 'idempotency_key', 'reason'])
        .having(sql`count(*)`, '>', 1)
        .execute();
      const keysOnFile = new Set(
        (await dbx.selectFrom('credit_ledger').select(['reseller_id', 'idempotency_key']).where('idempotency_key', 'is not', null).execute()).map(
          (r) => `${r.reseller_id}:${r.idempotency_key}`,
        ),
      );
      const lost = acknowledged.filter((a) => !keysOnFile.has(`${a.actor}:${a.key}`));
      const lines = Number((await dbx.selectFrom('lines').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const ledgerRows = Number((await dbx.selectFrom('credit_ledger').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      console.log(
        `crash (${ENGINE}): kills=${KILLS}, requests sent=${sent} (retried with the same key: ${retried}), cut by a kill=${cut}, ` +
          `answers ${JSON.stringify(answers)}; lines=${lines}, ledger rows=${ledgerRows}; ledger mismatches=${ledger.length}, ` +
          `charges without line=${chargesWithoutLine.length}, lines without charge=${linesWithoutCharge.length}, ` +
          `double charges=${doubleCharges.length}, acknowledged but lost=${lost.length}`,
      );
      expect(ledger).toEqual([]);
      expect(chargesWithoutLine).toEqual([]);
      expect(linesWithoutCharge).toEqual([]);
      expect(doubleCharges).toEqual([]);
      expect(lost).toEqual([]);
      expect(serverErrors).toEqual([]);
      // the dashboard's kept counts (their change rows commit with the lines, folds are atomic)
      expect(await keptCountsMismatches(dbx)).toEqual([]);
      expect(acknowledged.length).toBeGreaterThan(KILLS * 5); // the load really ran between kills
    } finally {
      await database.close();
    }
  });
});
