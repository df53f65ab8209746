import type { Config } from '../../config.ts';
import { appError } from '../../http/errors.ts';
import type { AccountState } from './p2p-client.ts';

// P2P rules without I/O: logins, statuses, what the P2P server is told.

/** -1 registered (not yet active), 0 disabled (blocked), 1 active. */
export const P2P_STATUSES = [-1, 0, 1] as const;

/** 1 credit per month, 1..12 months (docs/rules.md). */
export const RENEW_CREDITS_PER_MONTH = 1;

/** The login: username@domain (the domain is the `p2p_email_domain` setting). */
export const emailOf = (username: string, domain: string) => `${username}@${domain}`;

/** The part after the @ (an account keeps its domain when its username changes). */
export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** The part before the @. */
export const localPartOf = (email: string) => email.slice(0, email.lastIndexOf('@'));

/**
 * Creating, trialling, renewing or importing accounts needs the P2P server (P2P_API_URL): without
 * it an account would never work, so these are refused with 503 NOT_CONFIGURED before anything is
 * charged or written (docs/rules.md, "P2P accounts"). Edits, blocks and deletions stay possible.
 */
export function assertP2pConfigured(config: Pick<Config, 'p2pApiUrl'>): void {
  if (!config.p2pApiUrl) throw appError('NOT_CONFIGURED', { params: { what: 'The P2P server (P2P_API_URL)' } });
}

/** Lines on system 2 (P2P) or 3 (P2P BR) also live on the P2P server. */
export const isP2pSystem = (system: number) => system === 2 || system === 3;

export interface AccountFields {
  name: string;
  password: string;
  expires_at: number;
  status: number;
  max_connections: number;
  is_trial: number;
}

export interface LineFields {
  id: number;
  username: string;
  password: string;
  exp_date: number;
  enabled: number;
  max_connections: number;
  is_trial: number;
  system: number;
}

export const accountState = (a: AccountFields): AccountState => ({
  name: a.name,
  password: a.password,
  expires_at: a.expires_at,
  status: a.status,
  max_connections: a.max_connections,
  is_trial: a.is_trial === 1,
});

/** A P2P line is provisioned under its username, named after it, active while enabled. */
export const lineState = (l: LineFields): AccountState => ({
  name: l.username,
  password: l.password,
  expires_at: l.exp_date,
  status: l.enabled === 1 ? 1 : 0,
  max_connections: l.max_connections,
  is_trial: l.is_trial === 1,
});

/** Exponential backoff of a failed delivery: base, 2x base, 4x base... capped, with +-20 % jitter. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
  return Math.min(maxMs, Math.round(exp * (0.8 + Math.random() * 0.4)));
}
