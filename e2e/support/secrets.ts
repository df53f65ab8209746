import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

// The secrets a run used (passwords typed or sent, tokens and keys the server answered, the
// servers' secret settings), recorded as they are used so the global teardown can check that none
// of them is in any server's log (support/log-check.ts). Each test process appends to its own file
// in the run's log-check folder (E2eRun.logCheckDir).

export interface UsedSecret {
  kind: string;
  value: string;
}

let dir: string | null | undefined;
const seen = new Set<string>();

/** The global setup's own folder (it has no inject); test processes read it from inject('e2e'). */
export function setSecretsDir(folder: string): void {
  dir = folder;
}

function secretsDir(): string | null {
  if (dir === undefined) {
    try {
      dir = inject('e2e')?.logCheckDir ?? null;
    } catch {
      dir = null;
    }
  }
  return dir;
}

/** Remembers a secret this run used (short or non-string values are ignored). */
export function recordSecret(kind: string, value: unknown): void {
  if (typeof value !== 'string' || value.length < 6 || seen.has(value)) return;
  const folder = secretsDir();
  if (!folder) return;
  seen.add(value);
  fs.appendFileSync(path.join(folder, `secrets-${process.pid}.jsonl`), `${JSON.stringify({ kind, value })}\n`);
}

/** Fields of a request body that hold secrets: passwords, 2FA codes and challenges, tokens, keys. */
const SENT = /^(password|new_password|current_password|old_password|code|challenge|token|device_token|secret|key|api_key|mercadopago_access_token|mercadopago_webhook_secret)$/;
/** Fields of an answer that hold secrets (an answer's `code` is an error code, not a secret). */
const ANSWERED = /^(password|token|device_token|challenge|secret|key|api_key|download_token|recovery_codes)$/;
/** Secrets inside URLs an answer holds: one-time download links, renewal links, short links. */
const IN_URL = [/[?&](?:download_token|t)=([^&#\s]+)/g, /\/s\/([A-Za-z0-9_-]{6,})(?=$|[?#])/g];

function walk(value: unknown, fields: RegExp, kind: string, name = '', depth = 0): void {
  if (depth > 6 || value === null || value === undefined) return;
  if (typeof value === 'string') {
    if (fields.test(name)) recordSecret(`${kind} ${name}`, value);
    for (const re of IN_URL) for (const m of value.matchAll(re)) recordSecret(`${kind} link token`, decodeURIComponent(m[1] ?? ''));
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) walk(v, fields, kind, name, depth + 1);
    return;
  }
  if (typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, fields, kind, k, depth + 1);
}

/** Records the secrets of a request body sent to the API. */
export function recordSent(body: unknown): void {
  walk(body, SENT, 'sent');
}

/** Records the secrets of an API answer (`key` only from writes: a GET's `key` may be a setting's name). */
export function recordAnswered(body: unknown, method: string): void {
  walk(body, method === 'GET' ? new RegExp(ANSWERED.source.replace('|key|', '|')) : ANSWERED, 'answered');
}

/** Records an Authorization header's credential (session token, API key, customer token). */
export function recordAuthorization(header: string | undefined): void {
  const m = header ? /^(?:Bearer|Basic)\s+(.+)$/i.exec(header) : null;
  if (m) recordSecret('Authorization credential', m[1]);
}

/** Environment variables of a server that hold secrets (keys, passwords, SMTP credentials). */
export function recordServerEnv(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (/PASSWORD|SECRET|TOKEN|_KEY$/.test(name)) recordSecret(`server setting ${name}`, value);
    const userinfo = /^[a-z]+:\/\/([^@/]*)@/i.exec(value)?.[1];
    if (userinfo?.includes(':')) recordSecret(`server setting ${name} password`, decodeURIComponent(userinfo.split(':').slice(1).join(':')));
  }
}

/** Everything recorded in `folder` by every process of the run. */
export function readRecordedSecrets(folder: string): UsedSecret[] {
  const out: UsedSecret[] = [];
  for (const file of fs.readdirSync(folder).filter((f) => f.startsWith('secrets-'))) {
    for (const line of fs.readFileSync(path.join(folder, file), 'utf8').split('\n')) if (line) out.push(JSON.parse(line) as UsedSecret);
  }
  return out;
}
