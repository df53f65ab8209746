// Start-up time: launches the server (`node scripts/first-answer.mjs [tsx|dist|start|FILE.ts|FILE.js]`,
// environment passed through: DATABASE_URL, PORT...) and prints the milliseconds from launch to its first HTTP
// answer (GET /api/profile, a 401 without a session), then stops it with SIGTERM.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const how = process.argv[2] ?? 'dist';
const port = process.env.PORT ?? '3999';
const commands = {
  // one process (the tsx CLI would add a parent whose CPU time hides the server's)
  tsx: [process.execPath, ['--import', 'tsx', path.join(root, 'server', 'src', 'main.ts')]],
  dist: [process.execPath, [path.join(root, 'server', 'dist', 'main.js')]],
  start: [process.execPath, [path.join(root, 'scripts', 'start.mjs')]],
};
if (!commands[how] && !/\.(ts|m?js)$/.test(how)) throw new Error(`usage: first-answer.mjs [${Object.keys(commands).join('|')}]`);
if (/\.ts$/.test(how)) commands[how] = [process.execPath, ['--import', 'tsx', path.resolve(how)]];
if (/\.m?js$/.test(how)) commands[how] = [process.execPath, [path.resolve(how)]];
const [cmd, args] = commands[how];

const started = performance.now();
const child = spawn(cmd, args, { cwd: root, env: { LOG_LEVEL: 'warn', ...process.env, PORT: port }, stdio: ['ignore', 'inherit', 'inherit'] });
let exited = false;
child.on('exit', () => {
  exited = true;
});
for (;;) {
  if (exited) throw new Error('the server exited before answering');
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/profile`, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    const ms = Math.round(performance.now() - started);
    // CPU time the server process used until then (Linux: utime + stime, in clock ticks of 10 ms)
    const stat = fs.existsSync(`/proc/${child.pid}/stat`) ? fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8') : '';
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = stat ? `, ${(Number(fields[11]) + Number(fields[12])) * 10} ms of CPU` : '';
    console.log(`${how}: first answer (HTTP ${res.status}) after ${ms} ms${cpu}`);
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 10));
  }
}
const code = await new Promise((resolve) => {
  child.on('exit', (c, s) => resolve(c ?? s));
  child.kill('SIGTERM');
});
if (code !== 0) console.log(`the server exited with ${code}`);
