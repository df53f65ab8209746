import { OutboundError, checkUrl, outboundAppError, safeFetch } from '../../lib/ssrf/index.ts';
import { appError } from '../../http/errors.ts';

// The other provider's Xtream player API, read through the SSRF guard. Our own few lines rather than
// an npm Xtream client: those call the global fetch, which follows redirects and resolves the host
// again after any check (docs/decisions.md).

export interface SourceLine {
  username: string;
  password: string;
  /** Unix seconds; null: the provider says it never expires */
  exp_date: number | null;
  created_at: number | null;
  is_trial: boolean;
}

const FETCH_TIMEOUT_MS = 5000;
const MAX_BYTES = 1024 * 1024;

/** The credentials of an original Xtream playlist link; a shortened or other link is refused. */
export function parsePlaylistUrl(raw: string): { origin: string; username: string; password: string } {
  let url: URL;
  try {
    url = checkUrl(raw.trim());
  } catch (err) {
    throw outboundAppError(err, 'url');
  }
  const username = url.searchParams.get('username')?.trim();
  const password = url.searchParams.get('password')?.trim();
  const base = url.pathname.replace(/\/(get|player_api)\.php$/, '');
  if (base === url.pathname || !username || !password) throw appError('URL_NOT_ORIGINAL');
  return { origin: `${url.origin}${base}`, username, password };
}

const seconds = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : typeof v === 'number' ? v : Number.NaN;
  return Number.isInteger(n) && n > 0 && n < 2 ** 31 ? n : null;
};

/** GET {origin}/player_api.php?username&password: the line's user_info. */
export async function fetchSourceLine(raw: string, allow: readonly string[], timeoutMs = FETCH_TIMEOUT_MS): Promise<SourceLine> {
  const { origin, username, password } = parsePlaylistUrl(raw);
  const query = new URLSearchParams({ username, password });
  let body: Buffer;
  try {
    body = (await safeFetch(`${origin}/player_api.php?${query}`, { timeoutMs: Math.min(timeoutMs, FETCH_TIMEOUT_MS), maxBytes: MAX_BYTES, allow, headers: { accept: 'application/json' } })).body;
  } catch (err) {
    if (err instanceof OutboundError && err.reason === 'status' && (err.status === 401 || err.status === 403)) throw appError('SOURCE_REFUSED');
    throw outboundAppError(err, 'url');
  }
  let info: Record<string, unknown> | undefined;
  try {
    info = (JSON.parse(body.toString('utf8')) as { user_info?: Record<string, unknown> })?.user_info;
  } catch {
    info = undefined;
  }
  if (!info || typeof info !== 'object') throw appError('UPSTREAM_ERROR', { params: { detail: 'The provider did not answer with an Xtream player API answer' } });
  if (Number(info.auth) !== 1) throw appError('SOURCE_REFUSED');
  const name = typeof info.username === 'string' && info.username.trim() ? info.username.trim() : username;
  const pass = typeof info.password === 'string' && info.password.trim() ? info.password.trim() : password;
  return {
    username: name.slice(0, 50),
    password: pass.slice(0, 50),
    exp_date: seconds(info.exp_date),
    created_at: seconds(info.created_at),
    is_trial: String(info.is_trial) === '1' || info.is_trial === true,
  };
}

