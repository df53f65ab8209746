import { type Switchable, bearer, listen, readJson, send } from './http.ts';

// The P2P server as docs/integrations.md ("P2P server") defines it, on a real
// socket, for the server tests, the browser tests and `npm run dev:standins`:
//   PUT /accounts/{login} {name, password, expires_at, status, max_connections, is_trial} -> 201 new / 200 replaced
//   DELETE /accounts/{login} -> 204 (404 when there is none)
//   GET /online -> [{username, channel_name, duration, external_ip, app_version, app_name}]
// `Authorization: Bearer <key>` is required when a key is set. A change whose Idempotency-Key it
// has already applied is answered again without being applied twice. It records every request,
// and can be told to fail (any status), to hold requests without answering, or to go away.

export interface AccountState {
  name: string;
  password: string;
  expires_at: number;
  status: number;
  max_connections: number;
  is_trial: boolean;
}

export interface OnlineRow {
  username: string;
  channel_name: string;
  duration: number;
  external_ip: string;
  app_version: string;
  app_name: string;
}

export interface Received {
  method: string;
  path: string;
  /** the account's login, for /accounts/{login} */
  login?: string;
  body?: unknown;
  idempotencyKey?: string;
  /** epoch ms */
  at: number;
  /** the answer given (0: none, the request was held or cut) */
  status: number;
}

export interface P2pStandin extends Switchable {
  readonly key: string;
  /** what the server holds now, by login */
  readonly accounts: Map<string, AccountState>;
  /** every request, in arrival order */
  readonly received: Received[];
  /** the changes applied, in order (a redelivery of an applied Idempotency-Key is not repeated here) */
  readonly applied: Received[];
  /** the most requests seen in flight at once for one login */
  readonly maxInFlightPerLogin: number;
  /** answers GET /online; unset: every active, unexpired account as if watching (handy for a person) */
  online: OnlineRow[] | undefined;
  /** time taken by each request, ms */
  delayMs: number;
  /** answer every request with `status` (e.g. 503) until called with null */
  failWith(status: number | null): void;
  /** hold requests without answering (they are dropped, not applied, when held is turned off) */
  hold(on: boolean): void;
  /** resolves once `n` requests have been received in total */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
}

export interface P2pStandinOptions {
  port?: number;
  /** the bearer key it expects (default: none checked) */
  key?: string;
  /** time taken by each request, ms */
  delayMs?: number;
  /** print each request (npm run dev:standins) */
  verbose?: boolean;
}

const isState = (b: unknown): b is AccountState => {
  const s = b as AccountState;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.name === 'string' &&
    typeof s.password === 'string' &&
    Number.isInteger(s.expires_at) &&
    [-1, 0, 1].includes(s.status) &&
    Number.isInteger(s.max_connections) &&
    s.max_connections >= 1 &&
    typeof s.is_trial === 'boolean'
  );
};

export async function startP2pStandin(opts: P2pStandinOptions = {}): Promise<P2pStandin> {
  const key = opts.key ?? '';
  const accounts = new Map<string, AccountState>();
  const received: Received[] = [];
  const applied: Received[] = [];
  const appliedKeys = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const held = new Set<() => void>();
  let maxInFlightPerLogin = 0;
  let failStatus: number | null = null;
  let holding = false;
  let waiters: { n: number; resolve: () => void }[] = [];

  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    const match = /^\/accounts\/([^/]+)$/.exec(url.pathname);
    const login = match ? decodeURIComponent(match[1] ?? '') : undefined;
    let body: unknown;
    try {
      body = await readJson(req);
    } catch {
      body = '<malformed JSON>';
    }
    const idempotencyKey = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    const entry: Received = { method: req.method ?? '', path: url.pathname, login, body, idempotencyKey, at: Date.now(), status: 0 };
    received.push(entry);
    for (const w of waiters.filter((w) => received.length >= w.n)) w.resolve();
    waiters = waiters.filter((w) => received.length < w.n);
    if (opts.verbose) console.log(`[p2p stand-in] ${entry.method} ${entry.path} ${body === undefined ? '' : JSON.stringify(body)}`);

    const answer = (status: number, json?: unknown) => {
      entry.status = status;
      send(res, status, json);
    };
    if (login) {
      const n = (inFlight.get(login) ?? 0) + 1;
      inFlight.set(login, n);
      maxInFlightPerLogin = Math.max(maxInFlightPerLogin, n);
      res.on('close', () => inFlight.set(login, (inFlight.get(login) ?? 1) - 1));
    }
    if (holding) {
      await new Promise<void>((resolve) => {
        held.add(resolve);
        res.on('close', () => held.delete(resolve));
      });
      res.destroy();
      return;
    }
    if (standin.delayMs > 0) await new Promise((r) => setTimeout(r, standin.delayMs));
    if (key && bearer(req) !== key) return answer(401, { error: 'unauthorized' });
    if (failStatus !== null) return answer(failStatus, { error: 'told to fail' });

    if (req.method === 'GET' && url.pathname === '/online') return answer(200, standin.online ?? autoOnline());
    if (!login) return answer(404, { error: 'not found' });
    const repeat = idempotencyKey !== undefined && appliedKeys.has(idempotencyKey);
    if (req.method === 'PUT') {
      if (!isState(body)) return answer(400, { error: 'expected {name, password, expires_at, status, max_connections, is_trial}' });
      if (repeat) return answer(appliedKeys.get(idempotencyKey as string) as number);
      const status = accounts.has(login) ? 200 : 201;
      accounts.set(login, body);
      if (idempotencyKey) appliedKeys.set(idempotencyKey, status);
      applied.push(entry);
      return answer(status, body);
    }
    if (req.method === 'DELETE') {
      if (repeat) return answer(204);
      const existed = accounts.delete(login);
      if (idempotencyKey) appliedKeys.set(idempotencyKey, 204);
      applied.push(entry);
      return answer(existed ? 204 : 404);
    }
    return answer(405, { error: 'method not allowed' });
  }, opts.port);

  function autoOnline(): OnlineRow[] {
    const now = Date.now() / 1000;
    return [...accounts.entries()]
      .filter(([, a]) => a.status === 1 && a.expires_at > now)
      .map(([login], i) => ({
        username: login,
        channel_name: ['Globo SP', 'SporTV', 'ESPN Brasil', 'Discovery'][i % 4] ?? 'Globo SP',
        duration: 600 + i * 437,
        external_ip: `177.10.${i % 250}.${(i * 7) % 250}`,
        app_version: '3.2.1',
        app_name: 'P2P Player',
      }));
  }

  const standin: P2pStandin = {
    get port() {
      return server.port;
    },
    get url() {
      return server.url;
    },
    get up() {
      return server.up;
    },
    goAway: server.goAway,
    comeBack: server.comeBack,
    close: server.close,
    key,
    accounts,
    received,
    applied,
    get maxInFlightPerLogin() {
      return maxInFlightPerLogin;
    },
    online: undefined,
    delayMs: opts.delayMs ?? 0,
    failWith(status) {
      failStatus = status;
    },
    hold(on) {
      holding = on;
      if (!on) {
        for (const release of held) release();
        held.clear();
      }
    },
    waitForRequests(n, timeoutMs = 10_000) {
      if (received.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the P2P stand-in got ${received.length} requests, not ${n}, within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
  };
  return standin;
}
