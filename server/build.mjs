// `npm run build -w server`: compiles the server into server/dist/main.js (one ESM file, node_modules
// left outside, with a source map), so production starts with plain `node` instead of compiling
// TypeScript on every launch (tsx). server/dist sits at the same depth as server/src, so the paths
// the server resolves from its own file (the repository root, web/dist) stay the same.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const server = path.dirname(fileURLToPath(import.meta.url));
// `node build.mjs DIR` builds into server/DIR instead (a test's own copy); it must sit in server/.
const dist = path.join(server, process.argv[2] ?? 'dist');
if (path.dirname(dist) !== server) throw new Error(`the build goes into a folder of server/ (the same depth as src/), not ${dist}`);

fs.rmSync(dist, { recursive: true, force: true });
const bundle = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'warning' };
await build({ ...bundle, entryPoints: [path.join(server, 'src', 'main.ts')], outfile: path.join(dist, 'main.js') });
// Loaded by URL beside the module that starts it (modules/catalogue/m3u.ts): a worker thread,
// bundled on its own so the files it imports (http/json-depth.mjs) come along.
await build({ ...bundle, entryPoints: [path.join(server, 'src', 'modules', 'catalogue', 'm3u-worker.mjs')], outfile: path.join(dist, 'm3u-worker.mjs') });
// The SQLite reader threads (db/sqlite-readers.ts), loaded by URL the same way.
await build({ ...bundle, entryPoints: [path.join(server, 'src', 'db', 'sqlite-reader.mjs')], outfile: path.join(dist, 'sqlite-reader.mjs') });
console.log(`built ${path.relative(process.cwd(), path.join(dist, 'main.js'))}`);
