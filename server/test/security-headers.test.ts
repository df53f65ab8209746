import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ENGINE, type TestContext, createTestContext } from './helpers.ts';

/** A stand-in for web/dist: the server serves it like the real build. */
function fakeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>');
  fs.writeFileSync(path.join(dir, 'public.html'), '<!doctype html><html><body><div id="root" data-light></div><script type="module" src="/assets/public.js"></script></body></html>');
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
  return dir;
}

function directives(headers: OutgoingHttpHeaders): Map<string, string[]> {
  const csp = String(headers['content-security-policy'] ?? '');
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values] as const),
  );
}

function expectProtected(headers: OutgoingHttpHeaders, what: string): void {
  const csp = directives(headers);
  expect(csp.get('default-src'), what).toEqual(["'self'"]);
  expect(csp.get('script-src'), what).toEqual(["'self'"]);
  expect(csp.get('script-src-attr'), what).toEqual(["'none'"]);
  expect(csp.get('object-src'), what).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(csp.get('base-uri'), what).toEqual(["'self'"]);
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  expect(headers['x-powered-by'], what).toBeUndefined();
}

describe(`security headers (${ENGINE})`, () => {
  let t: TestContext;
  let token: string;
  const web = fakeWebDist();

  beforeAll(async () => {
    t = await createTestContext({ webDist: web, publicUrl: 'http://panel.lan:3000' });
    token = await t.login('admin');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(web, { recursive: true, force: true });
  });

  it('the web app (index, history fallback, assets) gets CSP, frame, sniffing and referrer protection', async () => {
    for (const url of ['/', '/users/add_trial', '/assets/app.js']) {
      const res = await t.call(null, { method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expectProtected(res.headers, url);
    }
  });

  it('the light pages get public.html (not cached, protected alike); every other path the panel', async () => {
    for (const url of ['/auth/sign-in', '/auth/sign-in?next=%2Fusers', '/minha-conta', '/minha-conta?t=abc', '/teste/loja-do-ze', '/teste/loja-do-ze/']) {
      const res = await t.call(null, { method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('data-light');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expectProtected(res.headers, url);
    }
    for (const url of ['/', '/users', '/auth/sign-in/more', '/teste', '/teste/a/b', '/minha-conta-x']) {
      const res = await t.call(null, { method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('data-light');
    }
  });

  it('the API gets them on successes and on errors', async () => {
    const cases = [
      { token, url: '/api/datacomplements', status: 200 },
      { token: null, url: '/api/profile', status: 401 },
      { token, url: '/api/nothing-here', status: 404 },
      { token, url: '/api/users/0x1', status: 400 },
    ];
    for (const c of cases) {
      const res = await t.call(c.token, { method: 'GET', url: c.url });
      expect(res.statusCode, c.url).toBe(c.status);
      expectProtected(res.headers, c.url);
    }
    const signIn = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'admin', password: 'wrong-one' } });
    expectProtected(signIn.headers, 'sign-in');
  });

  it('no API answer is kept by a browser or proxy cache: the sign-in token and the profile included', async () => {
    const signIn = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.headers['cache-control']).toBe('no-store');
    for (const url of ['/api/profile', '/api/users', '/api/nothing-here']) {
      const res = await t.call(token, { method: 'GET', url });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    expect((await t.call(null, { method: 'GET', url: '/api/profile' })).headers['cache-control']).toBe('no-store');
  });

  it('the API docs get them too, with only same-origin scripts', async () => {
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/static/swagger-initializer.js', '/api/docs/json']) {
      const res = await t.call(null, { method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(400);
      expectProtected(res.headers, url);
    }
    const page = await t.call(null, { method: 'GET', url: '/api/docs/' });
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/); // no inline script the CSP would block
  });

  it('on plain http there is no HSTS and no upgrade-insecure-requests (a LAN panel stays reachable)', async () => {
    const res = await t.call(null, { method: 'GET', url: '/' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(directives(res.headers).has('upgrade-insecure-requests')).toBe(false);
  });

  it('with an https PUBLIC_URL, HSTS and upgrade-insecure-requests are sent', async () => {
    const https = await createTestContext({ webDist: web, publicUrl: 'https://panel.example.com' });
    try {
      for (const url of ['/', '/api/profile', '/api/docs/']) {
        const res = await https.call(null, { method: 'GET', url });
        expect(res.headers['strict-transport-security'], url).toMatch(/^max-age=31536000/);
        expect(directives(res.headers).has('upgrade-insecure-requests'), url).toBe(true);
        expectProtected(res.headers, url);
      }
    } finally {
      await https.close();
    }
  });
});
