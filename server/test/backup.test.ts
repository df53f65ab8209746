import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReseller, groupIds, mint } from './fixtures.ts';
import { createTestContext, ENGINE, type TestContext } from './helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STRONG = 'trilho-azul-vento-2026';

/** Runs `npm run backup` exactly as the README says, against the test's database. */
function runBackup(databaseUrl: string, out: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'backup', '--', '--out', out], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

interface Snapshot {
  balances: Map<number, number>;
  ledgerSums: Map<number, number>;
  ledgerRows: number;
}

function check(snapshot: Snapshot) {
  for (const [id, credits] of snapshot.balances) expect(credits, `reseller ${id}`).toBe(snapshot.ledgerSums.get(id) ?? 0);
}

describe(`backup while the server writes (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let resellerIds: number[];
  let tmp: string;

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    const groups = await groupIds(t, admin);
    resellerIds = [];
    for (const name of ['bk_one', 'bk_two', 'bk_three']) {
      resellerIds.push((await createReseller(t, admin, { username: name, password: STRONG, type: 'reseller', groups })).id);
    }
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-backup-'));
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Admin credit grants in a loop until `stop` resolves: every grant is a ledger row plus a balance change. */
  async function writeUntil(stop: Promise<unknown>): Promise<number> {
    let done = false;
    void stop.then(() => (done = true));
    let n = 0;
    while (!done) {
      const id = resellerIds[n % resellerIds.length];
      await mint(t, admin, id, 1);
      n++;
    }
    return n;
  }

  async function liveLedgerRows(): Promise<number> {
    const row = await t.database.db.selectFrom('credit_ledger').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it.runIf(ENGINE === 'sqlite')('npm run backup copies a consistent SQLite database under writes', async () => {
    const url = t.deps.config.databaseUrl;
    const out = path.join(tmp, 'copy.db');
    const backup = runBackup(url, out);
    const writes = await writeUntil(backup);
    const { code, output } = await backup;
    expect(code, output).toBe(0);
    expect(output).toContain('integrity ok');
    expect(writes).toBeGreaterThan(0);

    const copy = new SqliteDatabase(out, { readonly: true });
    const balances = new Map(copy.prepare('select id, credits from resellers').all().map((r: any) => [r.id, r.credits]));
    const ledgerSums = new Map(copy.prepare('select reseller_id, sum(delta) s from credit_ledger group by reseller_id').all().map((r: any) => [r.reseller_id, r.s]));
    const ledgerRows = (copy.prepare('select count(*) n from credit_ledger').get() as { n: number }).n;
    copy.close();
    check({ balances, ledgerSums, ledgerRows });
    expect(ledgerRows).toBeLessThanOrEqual(await liveLedgerRows());

    // A second run never overwrites an existing backup.
    const again = await runBackup(url, out);
    expect(again.code).toBe(1);
    expect(again.output).toContain('already exists');
  });

  it.runIf(ENGINE === 'postgres')('npm run backup dumps PostgreSQL under writes and pg_restore brings it back', async () => {
    const url = t.deps.config.databaseUrl;
    const out = path.join(tmp, 'panel.dump');
    const backup = runBackup(url, out);
    await writeUntil(backup);
    const { code, output } = await backup;
    expect(code, output).toBe(0);

    const target = `${url.replace(/.*\//, '')}_restored`;
    const adminUrl = url.replace(/\/[^/]*$/, '/postgres');
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`CREATE DATABASE ${target}`);
    try {
      const restored = spawnSync('pg_restore', ['--no-owner', `--dbname=${url.replace(/\/[^/]*$/, `/${target}`)}`, out], { encoding: 'utf8' });
      expect(restored.status, restored.stderr).toBe(0);
      const r = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, `/${target}`) });
      await r.connect();
      const balances = new Map((await r.query('select id, credits from resellers')).rows.map((x) => [x.id, x.credits]));
      const ledgerSums = new Map((await r.query('select reseller_id, sum(delta)::int s from credit_ledger group by reseller_id')).rows.map((x) => [x.reseller_id, x.s]));
      const ledgerRows = Number((await r.query('select count(*) n from credit_ledger')).rows[0].n);
      await r.end();
      check({ balances, ledgerSums, ledgerRows });
      expect(ledgerRows).toBeGreaterThan(0);
    } finally {
      await c.query(`DROP DATABASE IF EXISTS ${target} WITH (FORCE)`);
      await c.end();
    }
  });
});
