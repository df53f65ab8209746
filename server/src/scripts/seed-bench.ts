// `npm run seed:bench -- --lines 1000000 --resellers 10000`: fills DATABASE_URL with a realistic
// tree (admin -> masters -> resellers) and lines, by bulk inserts. Master "bench_master1" owns a
// subtree holding ~10% of all lines, so scoped queries can be measured too. `--streams N` (default
// 10,000) live channels and `--movies N` (default 20,000) movies in the bouquet every bench line
// has, for the player API and edge cases.
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { hashPassword } from '../modules/auth/tokens.ts';
import { COLUMNS, figures, writeLineCountTriggers } from '../db/migrations/032_line_counts.ts';
import { foldLineCounts, pruneLineCounts } from '../modules/dashboard/line-counts-folder.ts';
import { fillReports } from '../db/migrations/039_reports.ts';
import { panelTimeZone, zoneOffset } from '../lib/calendar.ts';
import { openForScript } from './open.ts';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    resellers: { type: 'string', default: '10000' },
    logs: { type: 'string', default: '1000000' },
    streams: { type: 'string', default: '10000' },
    movies: { type: 'string', default: '20000' },
  },
});
const STREAMS = Number(values.streams);
const MOVIES = Number(values.movies);
const LINES = Number(values.lines);
const LOGS = Number(values.logs);
const RESELLERS = Number(values.resellers);
const MASTERS = Math.max(1, Math.round(RESELLERS / 100));
export const BENCH_PASSWORD = 'bench-pass-2026';

const { database } = await openForScript();
const db = database.db;
if (await db.selectFrom('resellers').select('id').where('username', '=', 'bench_master1').executeTakeFirst()) {
  console.log('Bench resellers and lines are already there.');
  await seedLogs();
  await seedStreams();
  if (!(await db.selectFrom('report_days').select('scope_id').limit(1).executeTakeFirst())) await fillReportCounts();
  await database.close();
  process.exit(0);
}
const started = Date.now();
const hash = await hashPassword(BENCH_PASSWORD);
const groups = Object.fromEntries((await db.selectFrom('groups').selectAll().execute()).map((g) => [g.type, g.group_id]));
const admin = await db.selectFrom('resellers').select('id').where('member_group_id', '=', groups.admin).orderBy('id').executeTakeFirstOrThrow();
let pkg = await db.selectFrom('packages').select('id').where('is_trial', '=', 0).orderBy('id').executeTakeFirst();
if (!pkg) {
  const b = await db.insertInto('bouquets').values({ bouquet_name: 'Bench' }).returning('id').executeTakeFirstOrThrow();
  pkg = await db
    .insertInto('packages')
    .values({ package_name: 'Bench mensal', is_trial: 0, is_official: 1, max_connections: 1, official_credits: 1, official_duration: 1, official_duration_in: 'months', trial_credits: 0, trial_duration: 0, trial_duration_in: 'hours', bouquets: JSON.stringify([String(b.id)]) })
    .returning('id')
    .executeTakeFirstOrThrow();
}
const now = Math.floor(Date.now() / 1000);

// Resellers: masters under the admin, the rest spread under the masters.
const owners: number[] = [];
const masterOf = new Map<number, number>();
await db.transaction().execute(async (trx) => {
  for (let i = 0; i < RESELLERS; i++) {
    const isMaster = i < MASTERS;
    const ownerId = isMaster ? admin.id : owners[i % MASTERS];
    const r = await trx
      .insertInto('resellers')
      .values({ username: isMaster ? `bench_master${i + 1}` : `bench_res${i + 1}`, password_hash: hash, member_group_id: isMaster ? groups.master : groups.reseller, owner_id: ownerId, credits: 1000, status: 1, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    owners.push(r.id);
    const tree = [{ ancestor_id: r.id, descendant_id: r.id, depth: 0 }, { ancestor_id: admin.id, descendant_id: r.id, depth: isMaster ? 1 : 2 }];
    if (!isMaster) {
      tree.push({ ancestor_id: ownerId, descendant_id: r.id, depth: 1 });
      masterOf.set(r.id, ownerId);
    }
    await trx.insertInto('reseller_tree').values(tree).execute();
    await trx.insertInto('credit_ledger').values({ reseller_id: r.id, delta: 1000, balance_after: 1000, reason: 'admin_mint', actor_id: admin.id, created_at: now }).execute();
  }
});
console.log(`${RESELLERS} resellers in ${((Date.now() - started) / 1000).toFixed(1)} s`);

// The dashboard's kept counts are filled in one statement after the inserts, from the lines
// themselves (as migrations 032 and 033 did): the triggers would record 8 changes per line (80
// million at 10M lines on SQLite, over an hour to fold).
await dropLineCountTriggers();

// Lines: 10% to bench_master1's subtree, the rest spread over everyone.
const firstMasterSubtree = owners.filter((id, i) => i === 0 || masterOf.get(id) === owners[0]);
const BATCH = database.dialect === 'sqlite' ? 2000 : 5000;
for (let start = 0; start < LINES; start += BATCH) {
  const rows = [];
  for (let i = start; i < Math.min(LINES, start + BATCH); i++) {
    const owner = i % 10 === 0 ? firstMasterSubtree[i % firstMasterSubtree.length] : owners[(i * 7919) % owners.length];
    const isTrial = i % 20 === 0 ? 1 : 0;
    rows.push({
      member_id: owner,
      username: `b${i.toString(36)}x${(i * 2654435761) % 997}`,
      password: (i * 48271).toString(36).slice(-8).padStart(6, 'p'),
      exp_date: now + (((i * 7) % 150) - 30) * 86_400 + (i % 86_400),
      created_at: now - ((i * 13) % 400) * 86_400 - (i % 86_400),
      enabled: i % 23 === 0 ? 0 : 1,
      is_trial: isTrial,
      max_connections: 1,
      package_id: pkg.id,
      bouquet: '["1"]',
      reseller_notes: i % 4 === 0 ? `cliente ${i} indicado` : null,
      whatsapp: i % 3 === 0 ? `55119${String(10000000 + (i % 89999999)).padStart(8, '0')}` : null,
      system: i % 6 === 0 ? 2 : 1,
    });
  }
  await db.insertInto('lines').values(rows).execute();
  if ((start / BATCH) % 50 === 0) process.stdout.write(`\r${start + rows.length} lines`);
}
// Fresh statistics so the planner picks the indexes; on PostgreSQL also the visibility map,
// without which index-only scans (the counts) fall back to the heap.
await seedLogs();
await seedStreams();
await fillLineCounts();
await foldLineCounts({ database }); // changes recorded before the seed, if any
await fillReportCounts();
// PostgreSQL: the seed rewrote each reseller's counters once per line it created, a million row
// versions in minutes (33 MB for 10,000 rows); a live panel makes them over years, with autovacuum
// reusing the space. FULL gives the table back the size it would have there.
if (database.dialect === 'postgres') await sql`VACUUM FULL resellers`.execute(db);
await sql.raw(database.dialect === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE').execute(db);
console.log(`\n${LINES} lines in ${((Date.now() - started) / 1000).toFixed(1)} s total. Sign in as bench_master1 / ${BENCH_PASSWORD}`);
await database.close();

async function dropLineCountTriggers() {
  for (const name of ['insert', 'update', 'delete']) {
    await sql.raw(`DROP TRIGGER IF EXISTS line_counts_${name}${database.dialect === 'postgres' ? ' ON lines' : ''}`).execute(db);
  }
}

/** Every line's figures into line_counts in one statement, then the triggers back (one transaction). */
async function fillLineCounts() {
  const t0 = Date.now();
  await db.transaction().execute(async (trx) => {
    await sql`DELETE FROM line_count_changes`.execute(trx);
    await sql`DELETE FROM line_counts`.execute(trx);
    await sql.raw(`INSERT INTO line_counts (scope_id, kind, period, n) ${figures(`SELECT ${COLUMNS}, 1 AS sign FROM lines`, true)}`).execute(trx);
    await writeLineCountTriggers(trx, database.dialect, true);
  });
  await pruneLineCounts({ database }); // (creation hours past the kept days)
  console.log(`\nkept counts in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** The reports' kept counts from what the seed wrote (lines over 400 days: a year of history), as the migration fills them. */
async function fillReportCounts() {
  const t0 = Date.now();
  await db.transaction().execute((trx) => fillReports(trx, database.dialect, zoneOffset(Math.floor(Date.now() / 1000), panelTimeZone(process.env))));
  console.log(`report counts in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** Action-log rows spread over 90 days and every reseller (the log list must stay fast at millions). */
async function seedLogs() {
  const have = Number((await db.selectFrom('logs').select(sql<number>`count(*)`.as('n')).executeTakeFirst())?.n ?? 0);
  if (have >= LOGS) return;
  const ids = (await db.selectFrom('resellers').select('id').orderBy('id').execute()).map((r) => r.id);
  const t0 = Date.now();
  const actions = [['user', 'user_create'], ['user', 'user_renew'], ['user', 'user_flash_renew'], ['credits', 'add_credits'], ['auth', 'sign_in']] as const;
  const batch = database.dialect === 'sqlite' ? 3000 : 5000; // SQLite takes at most 32,766 parameters
  for (let start = have; start < LOGS; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(LOGS, start + batch); i++) {
      const [type_log, action] = actions[i % actions.length];
      const actor = ids[(i * 7919) % ids.length];
      rows.push({
        type_log,
        action,
        actor_id: actor,
        reseller_id: actor,
        target_reseller_id: type_log === 'credits' ? ids[(i * 104729) % ids.length] : null,
        target_user: type_log === 'user' ? `b${i.toString(36)}` : null,
        value_int: type_log === 'auth' ? null : 1,
        created_at: t0 - (i % (90 * 86_400)) * 1000 - (i % 1000),
      });
    }
    await db.insertInto('logs').values(rows).execute();
  }
  console.log(`${LOGS - have} log rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/**
 * STREAMS live channels and MOVIES movies, each kind in 50 categories, all given by the bouquet
 * every bench line has (the first): the player API's listings and get.php hand them out per line.
 */
async function seedStreams() {
  const t0 = Date.now();
  const now = Math.floor(t0 / 1000);
  const categories: number[] = [];
  let added = 0;
  for (const [kind, wanted, ext] of [['live', STREAMS, 'ts'], ['movie', MOVIES, 'mp4']] as const) {
    const label = kind === 'live' ? 'channel' : 'movie';
    const have = Number((await db.selectFrom('streams').select(sql<number>`count(*)`.as('n')).where('kind', '=', kind).executeTakeFirst())?.n ?? 0);
    const ofKind: number[] = [];
    for (let c = 0; c < 50; c++) {
      const row = await db
        .insertInto('categories')
        .values({ kind, name: `Bench ${kind} ${c + 1}`, created_at: now })
        .onConflict((oc) => oc.columns(['kind', 'name']).doUpdateSet({ created_at: now }))
        .returning('id')
        .executeTakeFirstOrThrow();
      ofKind.push(row.id);
    }
    categories.push(...ofKind);
    for (let start = have; start < wanted; start += 1000) {
      const rows = [];
      for (let i = start; i < Math.min(wanted, start + 1000); i++) {
        rows.push({
          kind,
          name: `Bench ${label} ${i + 1}`,
          category_id: ofKind[i % ofKind.length],
          icon: `https://img.example.com/bench/${kind}/${i + 1}.png`,
          added: now,
          container_ext: ext,
          source_url: `http://bench-origin.example.com/${kind}/${i + 1}.${ext}`,
          epg_id: kind === 'live' ? `bench${i + 1}.tv` : null,
        });
      }
      await db.insertInto('streams').values(rows).execute();
    }
    added += Math.max(0, wanted - have);
  }
  const bouquet = await db.selectFrom('bouquets').select('id').orderBy('id').executeTakeFirstOrThrow();
  await db.deleteFrom('bouquet_items').where('bouquet_id', '=', bouquet.id).execute();
  await db.insertInto('bouquet_items').values(categories.map((category_id) => ({ bouquet_id: bouquet.id, category_id, stream_id: null }))).execute();
  console.log(`${added} streams in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
