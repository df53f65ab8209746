import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { NGINX } from './edge/nginx.ts';
import { LB_CONF, fillPlaceholders, mainConfig, placeholdersOf } from './edge/panel-lb.ts';

// The nginx configs the repository ships pass `nginx -t` on Debian's nginx as they are written,
// with only the placeholders their header names replaced: docs/nginx-edge.conf (none) and
// docs/nginx-panel-lb.conf (__LISTEN__, __SERVER_NAME__, __PANEL_HOST_n__). Both go inside the
// http block (their headers say so: /etc/nginx/conf.d/), so each is included by a minimal main
// config of the test's own (pid, logs and temp folders in a temp prefix). Paths the configs
// themselves name are checked as written: the edge's answer cache, /var/lib/nginx/panel-auth, is
// created by `nginx -t` as root (the tests run as root) under the folder Debian's package ships.
// The load balancer's list of credit spends (retried with an Idempotency-Key) is checked against
// the routes that take one (server/openapi.json).

const EDGE_CONF = path.join(REPO_ROOT, 'docs/nginx-edge.conf');

function nginxTest(dir: string, http: string) {
  const conf = mainConfig(dir, http);
  const res = spawnSync(NGINX as string, ['-t', '-p', dir, '-c', conf, '-e', path.join(dir, 'error.log')], { encoding: 'utf8' });
  return { ok: res.status === 0, output: `${res.stdout}${res.stderr}` };
}

/** The POST routes that take an Idempotency-Key (a header parameter in the committed OpenAPI document). */
function keyedPostRoutes(): string[] {
  const doc = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'server/openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
  };
  const keyed: string[] = [];
  for (const [route, ops] of Object.entries(doc.paths)) {
    if (ops.post?.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key')) keyed.push(route);
  }
  return keyed;
}

describe.skipIf(!NGINX && !process.env.CI)('the shipped nginx configs pass nginx -t', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-nginx-t-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('docs/nginx-panel-lb.conf with its placeholders replaced, and nothing else', () => {
    const text = fs.readFileSync(LB_CONF, 'utf8');
    // the header names every placeholder the file uses
    const header = text.slice(0, text.search(/^[^#\n]/m));
    const names = placeholdersOf(text);
    expect(names).toEqual(['__LISTEN__', '__SERVER_NAME__', '__PANEL_HOST_1__', '__PANEL_HOST_2__']);
    for (const name of names) expect(header, name).toContain(name);
    const filled = fillPlaceholders(text, { __LISTEN__: '127.0.0.1:8080', __SERVER_NAME__: 'painel.example.com', __PANEL_HOST_1__: '10.0.1.11:3000', __PANEL_HOST_2__: '10.0.1.12:3000' });
    const res = nginxTest(tempDir(), filled);
    expect(res.ok, res.output).toBe(true);
  });

  it('docs/nginx-edge.conf as written, its answer cache where Debian has a folder for it', () => {
    const text = fs.readFileSync(EDGE_CONF, 'utf8');
    expect(placeholdersOf(text)).toEqual([]);
    const cache = text.match(/^proxy_cache_path (\S+) /m)?.[1];
    expect(cache).toBe('/var/lib/nginx/panel-auth');
    const existed = fs.existsSync(cache as string);
    try {
      const res = nginxTest(tempDir(), text);
      expect(res.ok, res.output).toBe(true);
      // nginx made the folder it keeps the answers in
      expect(fs.statSync(cache as string).isDirectory()).toBe(true);
    } finally {
      if (!existed) fs.rmSync(cache as string, { recursive: true, force: true }); // left as the machine had it
    }
  });

  it.runIf(!fs.existsSync('/var/cache/nginx'))('(the old cache folder, /var/cache/nginx, fails here: Debian has none)', () => {
    const text = fs.readFileSync(EDGE_CONF, 'utf8').replaceAll('/var/lib/nginx/panel-auth', '/var/cache/nginx/panel-auth');
    const res = nginxTest(tempDir(), text);
    expect(res.ok).toBe(false);
    expect(res.output).toContain('/var/cache/nginx');
  });

  it("the load balancer's list of credit spends is the routes that take an Idempotency-Key", () => {
    const text = fs.readFileSync(LB_CONF, 'utf8');
    const pattern = text.match(/^\s*location ~ (\^\/api\/\S+\$) \{$/m)?.[1];
    expect(pattern, 'the spends location').toBeDefined();
    const spends = new RegExp(pattern as string);
    const keyed = keyedPostRoutes();
    expect(keyed.length).toBeGreaterThan(5);
    const sample = (route: string) => route.replace(/\{[^}]+\}/g, '42');
    for (const route of keyed) expect(sample(route), route).toMatch(spends);
    // ... and no other POST route (one the panel would run twice)
    const doc = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'server/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const others = Object.entries(doc.paths)
      .filter(([route, ops]) => ops.post && !keyed.includes(route))
      .map(([route]) => sample(route))
      .filter((url) => spends.test(url));
    expect(others).toEqual([]);
  });
});
