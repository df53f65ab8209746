import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINE } from './helpers.ts';
import { type FreshDatabase, ServerProcess, buildServer, freePort, freshDatabase } from './security/server-process.ts';

// Production runs the compiled server (`npm run build -w server`, then `node server/dist/main.js`,
// what `npm start` does): the build must succeed, bring along every file the bundle loads beside
// itself, and the compiled server must start, answer and exit 0 on SIGTERM. The build goes into a
// folder of its own (server/.dist-test-PID) so it never races a `npm start` or another test.

const ADMIN_PASSWORD = 'Compiled-Start-4821-harbour';

describe(`the compiled server (${ENGINE})`, () => {
  let db: FreshDatabase | undefined;
  let build: ReturnType<typeof buildServer> | undefined;
  afterAll(async () => {
    build?.remove();
    await db?.drop();
  });

  it('builds into one ESM file with a source map and the files it loads by URL beside it', () => {
    build = buildServer();
    console.log(`server build: ${build.ms} ms`);
    const outDir = build.dir;
    const main = fs.readFileSync(build.main, 'utf8');
    expect(fs.existsSync(`${build.main}.map`)).toBe(true);
    // node_modules stay outside the bundle
    expect(main).toMatch(/from "fastify"/);
    // every `new URL('./file', import.meta.url)` of the bundle names a file of the build
    const byUrl = [...main.matchAll(/new URL\("\.\/([^"]+)", import\.meta\.url\)/g)].map((m) => m[1]);
    expect(byUrl).toContain('m3u-worker.mjs');
    for (const file of byUrl) expect(fs.existsSync(path.join(outDir, file)), file).toBe(true);
  });

  it('starts (migrating an empty database, then again on the migrated one), answers, and exits 0 on SIGTERM', async () => {
    const main = build?.main;
    if (!main) throw new Error('the build failed (previous test)');
    db = await freshDatabase('panel_compiled');
    const times: number[] = [];
    for (const run of ['empty database', 'migrated database']) {
      const server = new ServerProcess(await freePort(), { DATABASE_URL: db.url, ADMIN_PASSWORD }, [main]);
      const started = performance.now();
      try {
        await server.start(30_000);
        times.push(Math.round(performance.now() - started));
        const res = await fetch(`${server.base}/api/auth/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
        });
        expect(res.status, `${run}: ${await res.clone().text()}`).toBe(200);
        expect(typeof (await res.json()).token).toBe('string');
      } finally {
        const exit = await server.stop('SIGTERM');
        expect(exit, `${run}:\n${server.output.join('\n')}`).toEqual({ code: 0, signal: null });
      }
    }
    console.log(`compiled server, first answer after: ${times[0]} ms (empty database), ${times[1]} ms (migrated)`);
  });
});
