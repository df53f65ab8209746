import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from './helpers.ts';
import { type FreshDatabase, ServerProcess, freePort, freshDatabase } from './security/server-process.ts';

// The real server process under keep-alive load gets SIGTERM: every request must end in an HTTP
// answer (2xx, 4xx or 503), never a reset; requests in flight finish; the process exits 0.

const ADMIN_PASSWORD = 'Sigterm-Lantern-7391-quiver';
const CONNECTIONS = 20;
const REQUESTS_BEFORE_SIGTERM = 300;
/** longer than the server's 1 s drain, so a request in flight outlives it */
const SLOW_BODY_PAUSE_MS = 1800;

interface Outcome {
  kind: string;
  status?: number;
  error?: string;
  afterSigterm: boolean;
}

interface Call {
  method: string;
  path: string;
  token?: string;
  body?: string;
}

function send(base: string, agent: http.Agent, call: Call): Promise<{ status?: number; error?: string; body?: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const req = http.request(`${base}${call.path}`, { method: call.method, agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.message === 'socket hang up' ? 'socket hang up' : (e.code ?? e.message) }));
    req.end(call.body);
  });
}

/**
 * A sign-in whose body follows `pauseMs` after the server has read its headers (it answers
 * `Expect: 100-continue` while starting the request), so it is surely in flight meanwhile.
 */
function slowSignIn(base: string, pauseMs: number, started: () => void): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD });
    const req = http.request(`${base}/api/auth/sign-in`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' },
    });
    req.on('continue', () => {
      started();
      setTimeout(() => req.end(body), pauseMs);
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.message === 'socket hang up' ? 'socket hang up' : (e.code ?? e.message) }));
    req.flushHeaders();
  });
}

describe(`SIGTERM under load (${ENGINE})`, () => {
  let db: FreshDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    db = await freshDatabase('panel_sigterm');
    server = new ServerProcess(await freePort(), { DATABASE_URL: db.url, ADMIN_PASSWORD, LOG_LEVEL: 'warn' });
    await server.start();
  }, 90_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db?.drop();
  });

  it('answers every request (2xx, 4xx or 503), resets none, finishes those in flight and exits 0', async () => {
    const base = server.base;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const signIn = await send(base, agent, { method: 'POST', path: '/api/auth/sign-in', body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
    expect(signIn.status, signIn.body).toBe(200);
    const token = JSON.parse(signIn.body ?? '{}').token as string;

    const mix: Array<[string, Call]> = [
      ['profile', { method: 'GET', path: '/api/profile', token }],
      ['list', { method: 'GET', path: '/api/resellers?per=100', token }],
      ['dashboard', { method: 'GET', path: '/api/dashboard', token }],
      ['sign-in (argon2, slow)', { method: 'POST', path: '/api/auth/sign-in', body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) }],
      ['bad body', { method: 'POST', path: '/api/admin/bouquets', token, body: '{"bouquet_name": 5}' }],
      ['no session', { method: 'GET', path: '/api/profile' }],
    ];

    const outcomes: Outcome[] = [];
    let sigtermSent = false;
    let stop = false;
    let enough: () => void = () => undefined;
    const loaded = new Promise<void>((resolve) => {
      enough = resolve;
    });

    const worker = async (w: number) => {
      for (let n = w; !stop; n++) {
        const [kind, call] = mix[n % mix.length];
        const afterSigterm = sigtermSent;
        const res = await send(base, agent, call);
        outcomes.push({ kind, status: res.status, error: res.error, afterSigterm });
        if (outcomes.length >= REQUESTS_BEFORE_SIGTERM) enough();
        if (res.error === 'ECONNREFUSED' && sigtermSent) return; // no longer accepting: done
      }
    };
    const workers = Array.from({ length: CONNECTIONS }, (_, w) => worker(w));

    await loaded;
    // Requests surely inside the server when SIGTERM arrives: their bodies are still on the way.
    let slowStarted = 0;
    const slow = Array.from({ length: 3 }, () => slowSignIn(base, SLOW_BODY_PAUSE_MS, () => slowStarted++));
    while (slowStarted < slow.length) await delay(5);

    const exit = server.stop('SIGTERM');
    sigtermSent = true;
    const exited = await Promise.race([exit, delay(20_000).then(() => undefined)]);
    stop = true;
    await Promise.all(workers);
    const slowResults = await Promise.all(slow);
    agent.destroy();

    const summary = {
      total: outcomes.length,
      beforeSigterm: outcomes.filter((o) => !o.afterSigterm).length,
      statuses: count(outcomes.filter((o) => o.status).map((o) => String(o.status))),
      errors: count(outcomes.filter((o) => o.error).map((o) => `${o.error}${o.afterSigterm ? ' (after SIGTERM)' : ''}`)),
      slow: slowResults,
    };
    console.log(`[sigterm ${ENGINE}] ${JSON.stringify(summary)}`);

    expect(exited, `no exit within 20 s:\n${server.output.join('\n')}`).toEqual({ code: 0, signal: null });
    expect(summary.beforeSigterm).toBeGreaterThanOrEqual(REQUESTS_BEFORE_SIGTERM);
    for (const o of outcomes) {
      if (o.status !== undefined) {
        expect(o.status === 503 || (o.status >= 200 && o.status < 500), `${o.kind}: ${o.status}`).toBe(true);
      } else {
        // the only acceptable failure: a new connection refused once the server stopped listening
        expect({ kind: o.kind, error: o.error, afterSigterm: o.afterSigterm }).toEqual({ kind: o.kind, error: 'ECONNREFUSED', afterSigterm: true });
      }
    }
    expect(slowResults).toEqual(slowResults.map(() => ({ status: 200 })));
  }, 60_000);
});

function count(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
