// `npm run plans [-- --only TEXT]`: the plan of every statement each list case sends (plan-cases.ts),
// on DATABASE_URL as seeded by `npm run seed:bench`, with one timing per case (warm, no load).
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/connection.ts';
import { captureQueries, caseScans, explain } from '../db/plans.ts';
import type { AuthUser } from '../domain/auth-user.ts';
import { PLAN_CASES } from './plan-cases.ts';

const { values } = parseArgs({ options: { only: { type: 'string' }, quiet: { type: 'boolean', default: false } } });
const config = loadConfig();
const database = openDatabase(config.databaseUrl, config);
const deps = { config, database };
const actor = async (username: string, type: AuthUser['type']): Promise<AuthUser> => {
  const row = await database.db.selectFrom('resellers').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  return { id: row.id, username, type, credits: 0, sessionId: 0, twoFactorEnabled: false };
};
const actors = { admin: await actor(process.env.ADMIN_USERNAME ?? 'admin', 'admin'), master: await actor('bench_master1', 'master'), reseller: await actor('bench_res500', 'reseller') };
const ctx = { reseller: 'bench_res500', now: Math.floor(Date.now() / 1000) };
for (const c of PLAN_CASES) {
  if (values.only && !`${c.as} ${c.name}`.includes(values.only)) continue;
  const queries = await captureQueries(database, (db) => c.run({ ...deps, database: { ...database, db } }, actors[c.as], ctx));
  const t = performance.now();
  await c.run(deps, actors[c.as], ctx);
  const ms = performance.now() - t;
  const plans = await Promise.all(queries.map((q) => explain(database, q)));
  const scans = plans.flatMap((p, i) => caseScans(c, queries[i].sql, p));
  const missing = c.uses[database.dialect].filter((name) => !plans.flat().some((l) => l.includes(name)));
  console.log(`## ${c.as} / ${c.name}: ${ms.toFixed(1)} ms${scans.length ? ' TABLE SCAN' : ''}${missing.length ? ` MISSING ${missing.join(',')}` : ''}`);
  if (values.quiet) continue;
  queries.forEach((q, i) => {
    console.log(q.sql);
    console.log(plans[i].map((l) => `    ${l}`).join('\n'));
  });
}
await database.close();
