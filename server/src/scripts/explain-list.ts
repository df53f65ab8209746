// `tsx src/scripts/explain-list.ts admin|master|reseller 'status=1&order_by=username,asc' [/api/users]`:
// the statements that list route (default /api/users; any of list-matrix.ts LIST_SERVICES) sends
// for that query on DATABASE_URL, each with its plan, and the time.
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/connection.ts';
import { captureQueries, explain } from '../db/plans.ts';
import type { AuthUser } from '../domain/auth-user.ts';
import fs from 'node:fs';
import { OPENAPI_FILE } from '../http/openapi-file.ts';
import { type OpenApiDoc, LIST_SERVICES, listRoutes, typedQuery } from './list-matrix.ts';

const [role = 'admin', query = '', path = '/api/users'] = process.argv.slice(2);
const service = LIST_SERVICES[path];
const route = listRoutes(JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as OpenApiDoc).find((r) => r.path === path);
if (!service || !route) throw new Error(`not a list route: ${path} (one of ${Object.keys(LIST_SERVICES).join(', ')})`);
const config = loadConfig();
const database = openDatabase(config.databaseUrl);
const deps = { config, database };
const username = { admin: process.env.ADMIN_USERNAME ?? 'admin', master: 'bench_master1', reseller: 'bench_res500' }[role] ?? role;
const row = await database.db.selectFrom('resellers').select('id').where('username', '=', username).executeTakeFirstOrThrow();
const type = role === 'admin' ? 'admin' : role === 'reseller' ? 'reseller' : 'master';
const actor: AuthUser = { id: row.id, username, type, credits: 0, sessionId: 0, twoFactorEnabled: false };
// (integer parameters as numbers, as the route's validation passes them on)
const q = typedQuery(route, Object.fromEntries(new URLSearchParams(query)));
const queries = await captureQueries(database, (db) => service.run({ ...deps, database: { ...database, db } } as never, actor, q));
for (const ms of [0, 1]) {
  const t = performance.now();
  await service.run(deps as never, actor, q);
  if (ms) console.log(`${(performance.now() - t).toFixed(1)} ms (warm)`);
}
for (const cq of queries) {
  console.log(cq.sql);
  console.log((await explain(database, cq)).map((l) => `    ${l}`).join('\n'));
}
await database.close();
