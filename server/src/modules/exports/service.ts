import type { Readable } from 'node:stream';
import type { Deps } from '../../deps.ts';
import { appError, validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { authenticateSession } from '../auth/service.ts';
import { hashToken, newToken } from '../auth/service.ts';
import * as credits from '../credits/service.ts';
import * as lines from '../lines/service.ts';
import * as logs from '../logs/service.ts';
import { writeLog } from '../logs/service.ts';
import * as resellers from '../resellers/service.ts';
import * as payments from '../payments/service.ts';
import { type Column, type Lang, type Render, ledgerColumns, lineColumns, logColumns, paymentColumns, resellerColumns } from './columns.ts';
import * as repo from './repo.ts';
import { csvStream, xlsxStream } from './writers.ts';

export type Format = 'csv' | 'xlsx';

export interface ExportOptions {
  format: Format;
  lang?: Lang;
  tz_offset?: number;
}

export interface ExportFile {
  filename: string;
  contentType: string;
  stream: Readable;
}

export const CONTENT_TYPES: Record<Format, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Query parameters that shape the file, not the rows (left out of the logged filters). */
const FILE_PARAMS = new Set(['lang', 'tz_offset', 'download_token', 'page', 'per', 'order_by']);

export async function exportLines(deps: Deps, actor: AuthUser, q: Parameters<typeof lines.exportRows>[2], o: ExportOptions) {
  return file(deps, actor, 'users', q, o, lineColumns, await lines.exportRows(deps, actor, { ...q, tz_offset: o.tz_offset }), 'Usuarios');
}

export async function exportResellers(deps: Deps, actor: AuthUser, q: Parameters<typeof resellers.exportRows>[2], o: ExportOptions) {
  return file(deps, actor, 'resellers', q, o, resellerColumns, resellers.exportRows(deps, actor, q), 'Revendedores');
}

export async function exportLedger(deps: Deps, actor: AuthUser, resellerId: number, o: ExportOptions) {
  return file(deps, actor, `ledger-${resellerId}`, {}, o, ledgerColumns, await credits.exportRows(deps, actor, resellerId), 'Creditos', resellerId);
}

export async function exportLogs(deps: Deps, actor: AuthUser, q: logs.LogQuery, o: ExportOptions) {
  return file(deps, actor, 'logs', q, o, logColumns, await logs.exportRows(deps, actor, q), 'Logs');
}

export async function exportPayments(deps: Deps, actor: AuthUser, q: Parameters<typeof payments.exportRows>[2], o: ExportOptions) {
  return file(deps, actor, 'payments', q, o, paymentColumns, payments.exportRows(deps, actor, q), 'Pagamentos');
}

function file<R>(deps: Deps, actor: AuthUser, name: string, filters: object, o: ExportOptions, columns: Column<R>[], rows: AsyncGenerator<R>, sheet: string, targetId?: number): ExportFile {
  const r: Render = { lang: o.lang ?? 'pt-BR', tzOffset: o.tz_offset ?? 0, now: nowSec() };
  const what = `${name}.${o.format}${describe(filters)}`;
  const audited = logged(rows, (count, complete) =>
    writeLog(deps.database.db, {
      type_log: 'export',
      action: 'data_export',
      actor_id: actor.id,
      reseller_id: actor.id,
      target_reseller_id: targetId ?? null,
      value: `${what}${complete ? '' : ' (interrupted)'}`.slice(0, 500),
      value_int: count,
    }),
  );
  const day = new Date((r.now + r.tzOffset * 60) * 1000).toISOString().slice(0, 10);
  return {
    filename: `${name}-${day}.${o.format}`,
    contentType: CONTENT_TYPES[o.format],
    stream: o.format === 'csv' ? csvStream(audited, columns, r) : xlsxStream(audited, columns, r, sheet),
  };
}

/** String filters whose values have a fixed form (dates, enums); any other text is the caller's own words. */
const FORMED = new Set(['created', 'dates', 'type_user', 'status']);
const LOG_TYPES: readonly string[] = logs.options().types;
const LOG_ACTIONS: readonly string[] = logs.options().actions;

function shown(key: string, value: unknown): string {
  if (typeof value !== 'string' || FORMED.has(key)) return String(value);
  if (key === 'type' && LOG_TYPES.includes(value)) return value;
  if (key === 'actions' && value.split(',').every((a) => LOG_ACTIONS.includes(a.trim()))) return value;
  return '*';
}

/**
 * "?status=1&username=*": the filters used, for the action log. Typed text is not copied: the log is
 * read by the caller's masters too, and which filters narrowed the export is what an audit needs.
 */
function describe(filters: object): string {
  const pairs = Object.entries(filters)
    .filter(([k, v]) => v !== undefined && v !== '' && !FILE_PARAMS.has(k))
    .map(([k, v]) => `${k}=${shown(k, v)}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
}

/** Passes the rows through, counting them; when the export ends, finished or cut short, `done` writes the log row. */
async function* logged<R>(rows: AsyncGenerator<R>, done: (count: number, complete: boolean) => Promise<void>): AsyncGenerator<R> {
  let count = 0;
  let complete = false;
  try {
    for await (const row of rows) {
      yield row;
      count++;
    }
    complete = true;
  } finally {
    await done(count, complete).catch(() => {});
  }
}

// --- one-time download links ---

const TOKEN_SECONDS = 60;
const EXPORT_PATH = /^\/api\/(users\/export\.(csv|xlsx)|resellers\/export\.csv|resellers\/[1-9]\d{0,9}\/ledger\/export\.csv|logs\/export\.csv|payments\/export\.(csv|xlsx))$/;
const TOKEN_PARAM = 'download_token';

/** "/api/x?b=1&a=2" as compared: path plus the query without the token, in the order given. */
function boundUrl(raw: string): { path: string; url: string; token: string | null } {
  const u = new URL(raw, 'http://panel.invalid');
  const token = u.searchParams.get(TOKEN_PARAM);
  u.searchParams.delete(TOKEN_PARAM);
  const query = u.searchParams.toString();
  return { path: u.pathname, url: `${u.pathname}${query ? `?${query}` : ''}`, token };
}

/**
 * A link a browser can open without the bearer header: bound to the caller's session and to this
 * exact export URL (filters included), valid 60 seconds, good for one download.
 */
export async function downloadLink(deps: Deps, actor: AuthUser, path: string) {
  const bound = boundUrl(path);
  if (!path.startsWith('/api/') || !EXPORT_PATH.test(bound.path) || bound.token !== null) throw validation('path', 'must be an export URL of this API');
  const { token, tokenHash } = newToken();
  const now = nowSec();
  await repo.insertDownloadToken(deps.database.db, { token_hash: tokenHash, session_id: actor.sessionId, url: bound.url, expires_at: now + TOKEN_SECONDS }, now);
  const sep = bound.url.includes('?') ? '&' : '?';
  return { url: `${bound.url}${sep}${TOKEN_PARAM}=${token}`, expires_at: now + TOKEN_SECONDS };
}

/** The signed-in reseller behind a download link of this request URL (used up by this call), or 401. */
export async function authenticateDownload(deps: Deps, requestUrl: string): Promise<AuthUser> {
  const bound = boundUrl(requestUrl);
  if (!bound.token || bound.token.length > 200) throw appError('UNAUTHORIZED', { params: { credential: 'This download link' } });
  const row = await repo.takeDownloadToken(deps.database.db, hashToken(bound.token));
  if (!row || row.url !== bound.url || row.expires_at <= nowSec()) throw appError('UNAUTHORIZED', { params: { credential: 'This download link' } });
  return authenticateSession(deps, row.session_id);
}
