// `npm start`: builds the web app when its build is missing or older than its sources, then
// runs the server (which serves the API and the built app) with signals passed through.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'web');
const built = path.join(web, 'dist', 'index.html');

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((f) => newest(path.join(web, f)));
// WEB_DIST names a build the operator made elsewhere: serve it as it is.
if (!process.env.WEB_DIST && (!fs.existsSync(built) || Math.max(...sources) > fs.statSync(built).mtimeMs)) {
  console.log('Building the web app...');
  const res = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const child = spawn(tsx, [path.join(root, 'server', 'src', 'main.ts')], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
