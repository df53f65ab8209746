import type { Config } from '../../config.ts';
import { appError } from '../../http/errors.ts';
import { callUpstream } from '../../http/outbound.ts';

// The old P2P panel's contract (docs/integrations.md, "Old P2P panel"), at OLD_P2P_URL:
// `POST /api/login {username, password}` -> `{token, reseller: {username, credits}}` or 401;
// `GET /api/clients` (bearer) -> `[{id, name, email, password, created, expiracao, status}]`.

const SYSTEM = 'Old P2P panel';

export interface OldSession {
  token: string;
  username: string;
  credits: number;
}

export interface OldClient {
  id: number;
  name: string;
  email: string;
  password: string;
  /** epoch seconds */
  created: number;
  /** epoch seconds */
  expiracao: number;
  status: number;
}

function base(config: Config): string {
  if (!config.oldP2pUrl) throw appError('NOT_CONFIGURED', { params: { what: SYSTEM } });
  return config.oldP2pUrl;
}

/** Signs in; null when the old panel refuses the credentials. */
export async function login(config: Config, username: string, password: string): Promise<OldSession | null> {
  const res = await callUpstream({ system: SYSTEM, url: `${base(config)}/api/login`, method: 'POST', json: { username, password } });
  if (res.status === 401 || res.status === 403) return null;
  if (res.status !== 200) throw appError('UPSTREAM_ERROR', { params: { system: SYSTEM, detail: `login answered ${res.status}` } });
  const body = res.body as { token?: unknown; reseller?: { username?: unknown; credits?: unknown } } | undefined;
  const credits = body?.reseller?.credits;
  if (typeof body?.token !== 'string' || body.token === '' || typeof credits !== 'number' || !Number.isSafeInteger(credits) || credits < 0) {
    throw appError('UPSTREAM_ERROR', { params: { system: SYSTEM, detail: 'login answer without a token or a whole, non-negative balance' } });
  }
  return { token: body.token, username: typeof body.reseller?.username === 'string' ? body.reseller.username : username, credits };
}

/** Epoch seconds from a number (seconds, or milliseconds when it is that large) or a date text. */
function epoch(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.floor(v > 1e11 ? v / 1000 : v);
  if (typeof v === 'string' && v.trim() !== '') {
    if (/^\d+$/.test(v.trim())) return epoch(Number(v));
    const ms = Date.parse(v);
    if (Number.isFinite(ms)) return Math.floor(ms / 1000);
  }
  return undefined;
}

/** The clients of the signed-in old account; null when the token is no longer accepted. */
export async function clients(config: Config, token: string): Promise<OldClient[] | null> {
  const res = await callUpstream({ system: SYSTEM, url: `${base(config)}/api/clients`, method: 'GET', headers: { authorization: `Bearer ${token}` } });
  if (res.status === 401 || res.status === 403) return null;
  if (res.status !== 200) throw appError('UPSTREAM_ERROR', { params: { system: SYSTEM, detail: `clients answered ${res.status}` } });
  if (!Array.isArray(res.body)) throw appError('UPSTREAM_ERROR', { params: { system: SYSTEM, detail: 'clients did not answer a list' } });
  return res.body.map((c: Record<string, unknown>, i: number) => {
    const created = epoch(c?.created);
    const expiracao = epoch(c?.expiracao);
    const status = Number(c?.status);
    if (typeof c?.email !== 'string' || created === undefined || expiracao === undefined || ![-1, 0, 1].includes(status)) {
      throw appError('UPSTREAM_ERROR', { params: { system: SYSTEM, detail: `client #${i + 1} lacks an email, dates or a status of -1, 0 or 1` } });
    }
    return {
      id: Number.isSafeInteger(c.id) ? (c.id as number) : i + 1,
      name: typeof c.name === 'string' ? c.name : '',
      email: c.email,
      password: typeof c.password === 'string' ? c.password : String(c.password ?? ''),
      created,
      expiracao,
      status,
    };
  });
}
