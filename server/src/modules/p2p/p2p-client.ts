import type { Config } from '../../config.ts';
import { appError } from '../../http/errors.ts';
import { callUpstream } from '../../http/outbound.ts';

// The P2P server's contract (docs/integrations.md, "P2P server"), with P2P_API_URL and
// P2P_API_KEY (`Authorization: Bearer`). Each delivery carries `Idempotency-Key: outbox-<id>`, so
// the other side can tell a redelivery (after a crash or a lost answer) from a new change.

const SYSTEM = 'P2P server';

/** What the P2P server keeps per login (`PUT /accounts/{login}`). */
export interface AccountState {
  name: string;
  password: string;
  /** epoch seconds */
  expires_at: number;
  /** -1 registered, 0 disabled, 1 active */
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

function target(config: Config, path: string): { url: string; headers: Record<string, string> } {
  if (!config.p2pApiUrl) throw appError('NOT_CONFIGURED', { params: { what: SYSTEM } });
  return {
    url: `${config.p2pApiUrl}${path}`,
    headers: config.p2pApiKey ? { authorization: `Bearer ${config.p2pApiKey}` } : {},
  };
}

const accountPath = (login: string) => `/accounts/${encodeURIComponent(login)}`;

/** Creates or replaces an account (200/201). */
export async function putAccount(config: Config, login: string, state: AccountState, idempotencyKey: string, signal?: AbortSignal): Promise<void> {
  const { url, headers } = target(config, accountPath(login));
  const res = await callUpstream({ system: SYSTEM, url, method: 'PUT', headers: { ...headers, 'idempotency-key': idempotencyKey }, json: state, signal });
  if (res.status !== 200 && res.status !== 201) throw appError('UPSTREAM_ERROR', { params: { system: SYSTEM, detail: `PUT answered ${res.status}` } });
}

/** Removes an account (204; a 404 means it is already gone, which is what we wanted). */
export async function deleteAccount(config: Config, login: string, idempotencyKey: string, signal?: AbortSignal): Promise<void> {
  const { url, headers } = target(config, accountPath(login));
  const res = await callUpstream({ system: SYSTEM, url, method: 'DELETE', headers: { ...headers, 'idempotency-key': idempotencyKey }, signal });
  if (res.status !== 204 && res.status !== 200 && res.status !== 404) throw appError('UPSTREAM_ERROR', { params: { system: SYSTEM, detail: `DELETE answered ${res.status}` } });
}

const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Who is watching now (`GET /online`), checked field by field. */
export async function online(config: Config): Promise<OnlineRow[]> {
  const { url, headers } = target(config, '/online');
  const res = await callUpstream({ system: SYSTEM, url, method: 'GET', headers });
  if (res.status !== 200) throw appError('UPSTREAM_ERROR', { params: { system: SYSTEM, detail: `GET /online answered ${res.status}` } });
  if (!Array.isArray(res.body)) throw appError('UPSTREAM_ERROR', { params: { system: SYSTEM, detail: 'GET /online did not answer a list' } });
  return res.body.flatMap((r): OnlineRow[] => {
    if (typeof r !== 'object' || r === null || typeof r.username !== 'string' || r.username === '') return [];
    const duration = Number(r.duration);
    return [
      {
        username: r.username,
        channel_name: text(r.channel_name),
        duration: Number.isFinite(duration) && duration > 0 ? Math.floor(duration) : 0,
        external_ip: text(r.external_ip),
        app_version: text(r.app_version),
        app_name: text(r.app_name),
      },
    ];
  });
}
