import { randomBytes } from 'node:crypto';
import { type Switchable, bearer, listen, readJson, send } from './http.ts';

// The old P2P panel as docs/integrations.md ("Old P2P panel") defines it, on a real
// socket, for the server tests, the browser tests and `npm run dev:standins`:
//   POST /api/login {username, password} -> {token, reseller: {username, credits}} or 401
//   GET /api/clients (Authorization: Bearer <token>) -> [{id, name, email, password, created, expiracao, status}]
// Dates are epoch seconds. It records every request and can be told to fail or to go away.

export interface OldClient {
  id: number;
  name: string;
  email: string;
  password: string;
  created: number;
  expiracao: number;
  status: number;
}

export interface OldAccount {
  username: string;
  password: string;
  credits: number;
  clients: OldClient[];
}

export interface OldPanelStandin extends Switchable {
  readonly accounts: OldAccount[];
  readonly received: { method: string; path: string; at: number; status: number }[];
  failWith(status: number | null): void;
  /** forgets every token handed out (the old sessions expire) */
  expireTokens(): void;
}

export async function startOldPanelStandin(opts: { port?: number; accounts?: OldAccount[]; verbose?: boolean } = {}): Promise<OldPanelStandin> {
  const accounts = opts.accounts ?? [];
  const tokens = new Map<string, OldAccount>();
  const received: OldPanelStandin['received'] = [];
  let failStatus: number | null = null;

  const server = await listen(async (req, res) => {
    const entry = { method: req.method ?? '', path: (req.url ?? '/').split('?')[0] ?? '/', at: Date.now(), status: 0 };
    received.push(entry);
    if (opts.verbose) console.log(`[old panel stand-in] ${entry.method} ${entry.path}`);
    const answer = (status: number, body?: unknown) => {
      entry.status = status;
      send(res, status, body);
    };
    let body: unknown;
    try {
      body = await readJson(req);
    } catch {
      return answer(400, { error: 'malformed JSON' });
    }
    if (failStatus !== null) return answer(failStatus, { error: 'told to fail' });
    if (req.method === 'POST' && entry.path === '/api/login') {
      const { username, password } = (body ?? {}) as { username?: unknown; password?: unknown };
      const account = accounts.find((a) => a.username === username && a.password === password);
      if (!account) return answer(401, { error: 'invalid credentials' });
      const token = randomBytes(16).toString('hex');
      tokens.set(token, account);
      return answer(200, { token, reseller: { username: account.username, credits: account.credits } });
    }
    if (req.method === 'GET' && entry.path === '/api/clients') {
      const account = tokens.get(bearer(req) ?? '');
      if (!account) return answer(401, { error: 'invalid token' });
      return answer(200, account.clients);
    }
    return answer(404, { error: 'not found' });
  }, opts.port);

  return {
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
    accounts,
    received,
    failWith(status) {
      failStatus = status;
    },
    expireTokens() {
      tokens.clear();
    },
  };
}

/** Old clients for demos and tests: `n` clients named `${prefix}N` at `domain`, expiring in 10..40 days. */
export function sampleClients(prefix: string, n: number, domain = 'painel-antigo.example'): OldClient[] {
  const now = Math.floor(Date.now() / 1000);
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `Cliente ${prefix}${i + 1}`,
    email: `${prefix}${i + 1}@${domain}`,
    password: i % 5 === 4 ? '0' : `senha${i + 1}x`,
    created: now - (100 + i) * 86_400,
    expiracao: now + (10 + i) * 86_400,
    status: i % 7 === 6 ? 0 : 1,
  }));
}
