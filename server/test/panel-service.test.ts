import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';

// docs/panel.service, the systemd unit of a panel host: its ExecStart runs what the build produces
// (server/dist/main.js under the install folder, the unit's WorkingDirectory), with a stop timeout
// that covers the server's graceful shutdown, and `systemd-analyze verify` accepts it where systemd
// is installed.

const UNIT = path.join(REPO_ROOT, 'docs/panel.service');
const SYSTEMD_ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => fs.existsSync(p));

/** The unit's `Key=value` lines (a key given twice keeps both values). */
function settings(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const m = line.match(/^([A-Za-z]+)=(.*)$/);
    if (m) out.set(m[1], [...(out.get(m[1]) ?? []), m[2]]);
  }
  return out;
}

describe('docs/panel.service', () => {
  const text = fs.readFileSync(UNIT, 'utf8');
  const unit = settings(text);
  const one = (key: string) => {
    const values = unit.get(key) ?? [];
    expect(values, key).toHaveLength(1);
    return values[0];
  };
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ExecStart runs the compiled server the build writes, from the install folder', () => {
    const install = one('WorkingDirectory');
    const [node, main, ...rest] = one('ExecStart').split(/\s+/);
    expect(path.basename(node)).toBe('node');
    expect(rest).toEqual([]);
    expect(main.startsWith(`${install}/`), `${main} under ${install}`).toBe(true);
    const relative = main.slice(install.length + 1);
    expect(relative).toBe('server/dist/main.js');
    // the build (server/build.mjs) writes server/<DIR>/main.js, DIR being dist unless a test names
    // its own (this run builds into a .dist-run-PID folder of server/)
    const built = path.relative(REPO_ROOT, inject('serverMain')).split(path.sep);
    expect(built).toHaveLength(3);
    expect(fs.existsSync(inject('serverMain'))).toBe(true);
    expect([built[0], 'dist', built[2]].join('/')).toBe(relative);
    expect(fs.readFileSync(path.join(REPO_ROOT, 'server/build.mjs'), 'utf8')).toContain("process.argv[2] ?? 'dist'");
  });

  it('stops with SIGTERM, waiting longer than the server\'s graceful shutdown, restarts on failure, writes only its data folder', () => {
    expect(one('KillSignal')).toBe('SIGTERM');
    // closeGracefully (server/src/http/shutdown.ts): 1 s drain + up to 30 s for requests in flight
    const shutdown = fs.readFileSync(path.join(REPO_ROOT, 'server/src/http/shutdown.ts'), 'utf8');
    const grace = Number(shutdown.match(/drainMs = (\d+), graceMs = ([\d_]+)/)?.slice(1).reduce((a, b) => a + Number(b.replaceAll('_', '')), 0)) / 1000;
    expect(grace).toBeGreaterThan(0);
    expect(Number.parseInt(one('TimeoutStopSec'), 10)).toBeGreaterThanOrEqual(grace + 10);
    expect(one('Restart')).toBe('on-failure');
    expect(one('EnvironmentFile')).toMatch(/^\//);
    expect(one('ProtectSystem')).toBe('strict');
    // the data folder: writable (StateDirectory is /var/lib/<name>), and where the server keeps its files
    expect(unit.get('Environment')).toContain(`PANEL_DATA_DIR=/var/lib/${one('StateDirectory')}`);
  });

  it.runIf(!!SYSTEMD_ANALYZE)('systemd-analyze verify accepts it', () => {
    // As written; only where node is not /usr/bin/node (a CI image with its own node) the copy
    // names this machine's node, which verify requires to exist.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-unit-'));
    dirs.push(dir);
    const node = one('ExecStart').split(/\s+/)[0];
    const copy = fs.existsSync(node) ? text : text.replace(`ExecStart=${node} `, `ExecStart=${process.execPath} `);
    const file = path.join(dir, 'panel.service');
    fs.writeFileSync(file, copy);
    const res = spawnSync(SYSTEMD_ANALYZE as string, ['verify', file], { encoding: 'utf8' });
    // verify exits 0 on warnings too: any line about the unit is a failure
    const about = `${res.stdout}${res.stderr}`.split('\n').filter((l) => l.includes('panel.service'));
    expect({ status: res.status, about }).toEqual({ status: 0, about: [] });
  });

  it.skipIf(!!SYSTEMD_ANALYZE)('systemd-analyze verify: skipped, systemd-analyze is not installed on this machine', () => {});
});
