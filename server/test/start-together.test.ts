import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { prepareDatabase } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { ENGINE } from './helpers.ts';
import { ServerProcess, freePort, freshDatabase } from './security/server-process.ts';

// Hosts started at the same moment on an empty PostgreSQL database (a rollout of several replicas):
// migrations and the first admin happen once under the start lock (db/start-lock.ts); every host
// comes up ready and serves. SQLite is one process per database.

const ADMIN_PASSWORD = 'Together-Start-4471-harbour';

describe.runIf(ENGINE === 'postgres')('hosts started together on an empty database (postgres)', () => {
  it('start-up work called at the same instant by four processes\' handles: once, no error', { timeout: 60_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const db = await freshDatabase('panel_prepare');
      const config = loadConfig({ DATABASE_URL: db.url, ADMIN_PASSWORD });
      const handles = Array.from({ length: 4 }, () => openDatabase(db.url, config));
      try {
        const admins = await Promise.all(handles.map((database) => prepareDatabase({ config, database })));
        expect(admins.filter((a) => a !== null)).toEqual([{ username: 'admin', passwordFile: undefined }]);
      } finally {
        await Promise.all(handles.map((h) => h.close()));
        await db.drop();
      }
    }
  });

  for (const hosts of [2, 3]) {
    it(`${hosts} hosts: all ready, one first admin, each signs in`, { timeout: 120_000 }, async () => {
      const db = await freshDatabase(`panel_together${hosts}`);
      const servers: ServerProcess[] = [];
      try {
        for (let i = 0; i < hosts; i++) servers.push(new ServerProcess(await freePort(), { DATABASE_URL: db.url, ADMIN_PASSWORD, LOG_LEVEL: 'info' }));
        await Promise.all(servers.map((s) => s.start()));
        for (const s of servers) {
          const ready = await fetch(`${s.base}/readyz`);
          expect(ready.status, s.output.join('\n')).toBe(200);
          const signIn = await fetch(`${s.base}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
          expect(signIn.status).toBe(200);
        }
        const c = new pg.Client({ connectionString: db.url });
        await c.connect();
        try {
          expect((await c.query('select username from resellers')).rows).toEqual([{ username: 'admin' }]);
        } finally {
          await c.end();
        }
        // exactly one host printed the first admin
        expect(servers.filter((s) => s.output.some((l) => l.includes('First admin created'))).length).toBe(1);
      } finally {
        await Promise.all(servers.map((s) => s.stop('SIGKILL')));
        await db.drop();
      }
    });
  }
});
