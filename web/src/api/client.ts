import { ApiError } from './errors';
import { notifyError } from './notify';
import { clearSession, getToken } from './session';

export const REQUEST_TIMEOUT_MS = 10_000;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body. */
  body?: unknown;
  /** Query string values; undefined, null and '' are left out. */
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Sent as `Idempotency-Key` (calls that spend or move credits). */
  idempotencyKey?: string;
  /** Caller's abort signal (TanStack Query passes one). */
  signal?: AbortSignal;
  /** Do not show the error notification (the caller shows the error itself). */
  silent?: boolean;
  /** Call without the bearer token (sign-in). A 401 is then a normal error, not a session end. */
  anonymous?: boolean;
  /** A 401 is a normal error here (sign-out): no redirect to the sign-in page. */
  noAuthRedirect?: boolean;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => window.location.assign('/auth/sign-in');

/** The app installs a router-aware handler (clear caches, navigate to the sign-in page). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const qs = params.toString();
  return `/api${path}${qs ? `?${qs}` : ''}`;
}

/**
 * Calls the API. Resolves with the parsed JSON (undefined for 204), rejects with ApiError.
 * 401 -> session cleared and redirect to sign-in; network failure/timeout -> status 0 and
 * 'errors.COMMUNICATION'; other errors -> notification (unless `silent`).
 */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const token = opts.anonymous ? null : getToken();
  if (!opts.anonymous && !token) {
    // Not signed in (e.g. just signed out): nothing to ask the server, just go to sign-in.
    if (!opts.noAuthRedirect) onUnauthorized();
    throw new ApiError(401, 'UNAUTHORIZED', 'Not signed in');
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onCallerAbort, { once: true });

  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
  if (token) headers.Authorization = `Bearer ${token}`;

  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal: controller.signal,
    });
  } catch (e) {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
    if (!timedOut && opts.signal?.aborted) throw e; // cancelled by the caller: stay quiet
    const err = new ApiError(0, 'COMMUNICATION', 'Communication error with the server!');
    if (!opts.silent) notifyError(err);
    throw err;
  }
  clearTimeout(timer);
  opts.signal?.removeEventListener('abort', onCallerAbort);

  if (res.ok) {
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  const payload = (await res.json().catch(() => ({}))) as { code?: string; message?: string; field?: string };
  const err = new ApiError(res.status, payload.code ?? `HTTP_${res.status}`, payload.message ?? res.statusText, payload.field);
  if (res.status === 401 && !opts.anonymous && !opts.noAuthRedirect) {
    clearSession();
    notifyError(new ApiError(401, 'UNAUTHORIZED', err.message));
    onUnauthorized();
    throw err;
  }
  if (!opts.silent) notifyError(err);
  throw err;
}

/** Random key for the `Idempotency-Key` header; create one per user intent, reuse it on retry. */
export function newIdempotencyKey(): string {
  // randomUUID needs a secure context; plain-HTTP deployments fall back to getRandomValues.
  if (typeof crypto.randomUUID === 'function' && window.isSecureContext) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
