// `npm start`: builds the web app and the server when their builds are missing or older than their
// sources, then runs the compiled server (which serves the API and the built app) with plain node,
// signals passed through.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'web');
const server = path.join(root, 'server');

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

/** Runs `npm run build -w <workspace>` when `built` is missing or older than any of `sources`. */
function buildIfStale(workspace, built, sources, label) {
  const latest = Math.max(...sources.map(newest));
  if (fs.existsSync(built) && latest <= fs.statSync(built).mtimeMs) return;
  console.log(`Building ${label}...`);
  const res = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

// WEB_DIST names a build the operator made elsewhere: serve it as it is.
if (!process.env.WEB_DIST) {
  buildIfStale('web', path.join(web, 'dist', 'index.html'), ['src', 'index.html', 'public.html', 'vite.config.ts', 'package.json'].map((f) => path.join(web, f)), 'the web app');
}
buildIfStale('server', path.join(server, 'dist', 'main.js'), ['src', 'package.json', 'build.mjs'].map((f) => path.join(server, f)), 'the server');

const child = spawn(process.execPath, [path.join(server, 'dist', 'main.js')], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
