// The floor of `npm run bench`: a bare Fastify server that replays, per request, the exact SQL the
// product sends for a bench case (captured by the bench with captureQueries from the product's own
// services, session check included) on the raw driver, and answers the rows as JSON. No auth, no
// validation, no Kysely, no response schema: what is left is HTTP, the driver and the database.
//
//   DATABASE_URL=sqlite:/path/db PORT=3399 tsx src/scripts/floor.ts cases.json
//
// cases.json: { "<path>": [{ "sql": "...", "parameters": [...] }, ...], ... }. The bench writes it
// and starts this script itself (a child process, so the load generator does not share its CPU).
// It prints "floor listening" once it serves.
import fs from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

interface Statement {
  sql: string;
  parameters: unknown[];
}

const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as Record<string, Statement[]>;
const url = process.env.DATABASE_URL ?? '';
const port = Number(process.env.PORT ?? 3399);
const app = Fastify({ logger: false });

if (url.startsWith('sqlite:')) {
  const sqlite = new SqliteDatabase(url.slice('sqlite:'.length));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  for (const [path, statements] of Object.entries(cases)) {
    const prepared = statements.map((s) => ({ stmt: sqlite.prepare(s.sql), parameters: s.parameters }));
    app.get(path, async () => prepared.map(({ stmt, parameters }) => (stmt.reader ? stmt.all(parameters) : stmt.run(parameters))));
  }
} else {
  pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
  const pool = new pg.Pool({ connectionString: url, max: 10 }); // as many connections as the product
  for (const [path, statements] of Object.entries(cases)) {
    app.get(path, async () => {
      const out: unknown[] = [];
      for (const s of statements) out.push((await pool.query(s.sql, s.parameters)).rows);
      return out;
    });
  }
}

await app.listen({ port, host: '127.0.0.1' });
console.log('floor listening');
