import { openDatabase } from '../db/connection.ts';
import { captureQueries } from '../db/plans.ts';
import { findVisible } from '../modules/resellers/repo.ts';
const database = openDatabase(process.env.DATABASE_URL!);
const m = await database.db.selectFrom('resellers').select(['id', 'username']).where('username', 'like', 'tm%').orderBy('id').executeTakeFirstOrThrow();
const t = await database.db.selectFrom('resellers').select(['id']).where('owner_id', '=', m.id).executeTakeFirstOrThrow();
const actor = { id: m.id, username: m.username, type: 'master' as const, credits: 0, sessionId: 0, twoFactorEnabled: false };
const [q] = await captureQueries(database, (db) => findVisible(db, actor, t.id));
console.log(q.sql, JSON.stringify(q.parameters));
const Sqlite = (await import('better-sqlite3')).default;
const raw = new Sqlite(process.env.DATABASE_URL!.slice(7));
console.log(raw.prepare('EXPLAIN QUERY PLAN ' + q.sql).all(q.parameters as any[]).map((r: any) => r.detail).join('\n'));
const st = raw.prepare(q.sql);
let t0 = performance.now();
for (let i = 0; i < 5000; i++) st.all(q.parameters as any[]);
console.log('µs', ((performance.now() - t0) * 1000 / 5000).toFixed(1));
await database.close();
const variants: Record<string, string> = {
  noSub: q.sql.replace(/\(select count\(\*\) as "n" from "resellers" as "c" where "c"."owner_id" = "r"."id" and "c"."deleted_at" is null\)/, '0'),
  noExists: q.sql.replace(/ and exists \(.*\)$/, ' and ? and ? is not null'),
  bare: 'select * from resellers where id = ? and id != ? and ? and ? is not null',
  existsOnly: 'select 1 from resellers r where r.id = ?1 and ?2 is not null and exists (select 1 from reseller_tree t where t.ancestor_id = ?3 and t.descendant_id = r.id and t.depth >= ?4)',
  existsOnlyPk: 'select 1 from resellers r where r.id = ?1 and ?2 is not null and exists (select 1 from reseller_tree t indexed by sqlite_autoindex_reseller_tree_1 where t.ancestor_id = ?3 and t.descendant_id = r.id and t.depth >= ?4)',
  treeProbe: 'select 1 from reseller_tree t where t.ancestor_id = ?3 and t.descendant_id = ?1 and t.depth >= ?4 and ?2 is not null',
};
for (const [k, v] of Object.entries(variants)) {
  const s2 = raw.prepare(v);
  t0 = performance.now();
  for (let i = 0; i < 5000; i++) s2.all(...(q.parameters as any[]));
  console.log(k, 'µs', ((performance.now() - t0) * 1000 / 5000).toFixed(1));
}
console.log(raw.prepare("select sql from sqlite_master where tbl_name = 'reseller_tree'").all());
console.log(raw.prepare("select count(*) n, sum(depth) from reseller_tree").get());
console.log(raw.prepare("select * from sqlite_stat1 where tbl in ('reseller_tree','resellers')").all());
