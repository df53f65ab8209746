/**
 * The light pages' API calls: a small fetch wrapper (the panel's client brings openapi-fetch, the
 * toasts and the session's redirects). Resolves with the JSON answer; rejects with HttpError.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    /** Seconds, from `Retry-After`. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const TIMEOUT_MS = 10_000;

interface Options {
  body?: unknown;
  /** Authorization: Bearer (the panel's session after sign-in, or a customer's). */
  bearer?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, { body, bearer, headers = {}, signal }: Options = {}): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const sent: Record<string, string> = { Accept: 'application/json', ...headers };
  if (body !== undefined) sent['Content-Type'] = 'application/json';
  if (bearer) sent.Authorization = `Bearer ${bearer}`;
  let res: Response;
  try {
    res = await fetch(path, { method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body), signal: controller.signal });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new HttpError(0, 'COMMUNICATION', 'Communication error with the server!');
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  const data = (await res.json().catch(() => undefined)) as unknown;
  if (res.ok) return data as T;
  const payload = (data && typeof data === 'object' ? data : {}) as { code?: unknown; message?: unknown; field?: unknown };
  const retryAfter = Number(res.headers.get('retry-after'));
  throw new HttpError(
    res.status,
    typeof payload.code === 'string' ? payload.code : `HTTP_${res.status}`,
    typeof payload.message === 'string' ? payload.message : res.statusText,
    typeof payload.field === 'string' ? payload.field : undefined,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

export const isHttpError = (e: unknown): e is HttpError => e instanceof HttpError;
