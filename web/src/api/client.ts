import createClient, { type ClientPathsWithMethod, type MaybeOptionalInit, type MethodResponse } from 'openapi-fetch';
import { ApiError } from './errors';
import type { ErrorScope } from '../lib/errors';
import { goToSignIn } from '../lib/signInUrl';
import { notifyError } from './notify';
import type { paths } from './schema.d.ts';
import { clearSession, getToken } from './session';

export const REQUEST_TIMEOUT_MS = 10_000;

/** What a call adds to openapi-fetch's own `params` and `body`. */
export interface CallOptions {
  /** Sent as `Idempotency-Key` (calls that spend or move credits). */
  idempotencyKey?: string;
  /** Caller's abort signal (TanStack Query passes one). */
  signal?: AbortSignal;
  /**
   * The failure is not toasted: a background read (a poll, a lookup) whose failure must not be shown,
   * or a failure the caller shows in place (ErrorAlert in a dialog, a form's field). Never to show
   * the same error again by hand.
   */
  silent?: boolean;
  /** Features whose own texts word this call's errors first (errorText). */
  errorScopes?: readonly ErrorScope[];
  /** Call without the bearer token (sign-in). A 401 is then a normal error, not a session end. */
  anonymous?: boolean;
  /** Another session's token (a customer's, on the customer page): as `anonymous`, but sent. */
  bearer?: string;
  /** A 401 is a normal error here (sign-out): no redirect to the sign-in page. */
  noAuthRedirect?: boolean;
  /** Longer than REQUEST_TIMEOUT_MS for calls that take long (a playlist import). */
  timeoutMs?: number;
}

type UnauthorizedHandler = () => void;
let leaving = false;
/** The light sign-in page, a full load (the panel's caches stay behind), back to this page once signed in; once only. */
let onUnauthorized: UnauthorizedHandler = () => {
  if (leaving) return;
  leaving = true;
  goToSignIn(`${window.location.pathname}${window.location.search}`);
};

/** Another handler (tests). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

/** Query string of `query`; undefined, null and '' are left out. */
export function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  return params.toString();
}

const client = createClient<paths>({ querySerializer: queryString });

type Method = 'get' | 'post' | 'put' | 'delete';
type PathOf<M extends Method> = ClientPathsWithMethod<typeof client, M>;
type Init<M extends Method, P extends PathOf<M>> = NonNullable<MaybeOptionalInit<paths[P], M>> & CallOptions;
/** The second argument is optional when the operation needs neither params nor a body. */
type Args<M extends Method, P extends PathOf<M>> = undefined extends MaybeOptionalInit<paths[P], M> ? [init?: Init<M, P>] : [init: Init<M, P>];
type Data<M extends Method, P extends PathOf<M>> = MethodResponse<typeof client, M, P>;
/** The parsed JSON answer; undefined for 204. */
export type Result<M extends Method, P extends PathOf<M>> = [Data<M, P>] extends [never] ? undefined : Data<M, P>;

type Sent = { params?: object; body?: unknown } & CallOptions;
type Received = { data?: unknown; error?: unknown; response: Response };

/**
 * Calls the API. Resolves with the parsed JSON (undefined for 204), rejects with ApiError.
 * 401 -> session cleared and redirect to sign-in; network failure/timeout -> status 0 and
 * 'errors.COMMUNICATION'; other errors -> a toast worded by errorText with the call's `errorScopes`
 * (unless `silent`): the one way a failed call is shown.
 */
async function call(method: Method, path: string, init: Sent = {}): Promise<unknown> {
  const { idempotencyKey, signal, silent, errorScopes = [], bearer, anonymous: _anonymous, noAuthRedirect, timeoutMs = REQUEST_TIMEOUT_MS, ...request } = init;
  const anonymous = init.anonymous || bearer !== undefined;
  const token = bearer ?? (anonymous ? null : getToken());
  if (!anonymous && !token) {
    // Not signed in (e.g. just signed out): nothing to ask the server, just go to sign-in.
    if (!noAuthRedirect) onUnauthorized();
    throw new ApiError(401, 'UNAUTHORIZED', 'Not signed in');
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => controller.abort();
  signal?.addEventListener('abort', onCallerAbort, { once: true });

  const headers: Record<string, string> = { Accept: 'application/json' };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  if (token) headers.Authorization = `Bearer ${token}`;

  let received: Received;
  try {
    const send = client.request as (method: Method, path: string, init: object) => Promise<Received>;
    received = await send(method, path, { ...request, headers, signal: controller.signal });
  } catch (e) {
    if (!timedOut && signal?.aborted) throw e; // cancelled by the caller: stay quiet
    const err = new ApiError(0, 'COMMUNICATION', 'Communication error with the server!');
    if (!silent) notifyError(err, ...errorScopes);
    throw err;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
  }

  const { data, error, response } = received;
  if (response.ok) return data;
  const payload = (error && typeof error === 'object' ? error : {}) as { code?: string; message?: string; field?: string; reason?: string; limits?: { min?: number; max?: number } };
  const problem = payload.reason ? { reason: payload.reason, limits: payload.limits } : undefined;
  const err = new ApiError(response.status, payload.code ?? `HTTP_${response.status}`, payload.message ?? response.statusText, payload.field, problem);
  if (response.status === 401 && !anonymous && !noAuthRedirect) {
    clearSession();
    notifyError(new ApiError(401, 'UNAUTHORIZED', err.message));
    onUnauthorized();
    throw err;
  }
  if (!silent) notifyError(err, ...errorScopes);
  throw err;
}

function caller<M extends Method>(method: M) {
  return <P extends PathOf<M>>(path: P, ...args: Args<M, P>) => call(method, path, args[0] as Sent) as Promise<Result<M, P>>;
}

/**
 * The one API client: paths, params, bodies and answers typed from the server's OpenAPI document,
 * e.g. `api.GET('/api/users/{id}', { params: { path: { id } }, signal })`.
 */
export const api = { GET: caller('get'), POST: caller('post'), PUT: caller('put'), DELETE: caller('delete') };
