import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The client reads fetch and Request when it is created: both are replaced before it loads. Node's
// Request needs an absolute URL where the browser resolves '/api/...' against the page.
const sent = vi.hoisted(() => {
  const Base = globalThis.Request;
  globalThis.Request = class extends Base {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://panel.test') : input, init);
    }
  };
  const state = { requests: [] as Request[], answer: (_r: Request): Promise<Response> => Promise.resolve(new Response('{}')) };
  globalThis.fetch = (input: RequestInfo | URL) => {
    const request = input as Request;
    state.requests.push(request);
    return state.answer(request);
  };
  return state;
});
vi.mock('./notify', () => ({ notifyError: vi.fn() }));

import { api, REQUEST_TIMEOUT_MS, setUnauthorizedHandler } from './client';
import { ApiError } from './errors';
import { notifyError } from './notify';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const storage = new Map<string, string>();
const onUnauthorized = vi.fn();

beforeEach(() => {
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, v),
    removeItem: (k: string) => storage.delete(k),
    key: (i: number) => [...storage.keys()][i] ?? null,
    get length() {
      return storage.size;
    },
  });
  storage.set('panel.session', JSON.stringify({ t: 'tok' }));
  sent.requests = [];
  setUnauthorizedHandler(onUnauthorized);
});
afterEach(() => {
  vi.clearAllMocks();
  vi.useRealTimers();
});

async function failure(call: Promise<unknown>): Promise<ApiError> {
  const err = await call.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('api client', () => {
  it('sends the bearer token, leaves empty query values out and answers the JSON', async () => {
    sent.answer = async () => json(200, { data: [], meta: { page: 1, per: 10, count: 0, pages: 0, total: 0 } });
    const page = await api.GET('/api/users', { params: { query: { page: 2, username: '', reseller: undefined } } });
    expect(page.meta.page).toBe(1);
    const [request] = sent.requests;
    expect(request?.url).toBe('http://panel.test/api/users?page=2');
    expect(request?.headers.get('Authorization')).toBe('Bearer tok');
    expect(request?.headers.get('Accept')).toBe('application/json');
  });

  it('sends a JSON body with its Idempotency-Key; no Content-Type without a body; 204 is undefined', async () => {
    sent.answer = async () => json(200, { id: 7 });
    await api.POST('/api/users/{id}/renew', { params: { path: { id: 7 } }, body: { months: 1 }, idempotencyKey: 'k1' });
    const renew = sent.requests[0];
    expect(renew?.headers.get('Idempotency-Key')).toBe('k1');
    expect(renew?.headers.get('Content-Type')).toBe('application/json');
    expect(await renew?.text()).toBe('{"months":1}');

    sent.answer = async () => new Response(null, { status: 204 });
    expect(await api.DELETE('/api/users/{id}', { params: { path: { id: 7 } } })).toBeUndefined();
    expect(sent.requests[1]?.headers.get('Content-Type')).toBeNull();
  });

  it('turns an error answer into ApiError and shows it unless silent', async () => {
    sent.answer = async () => json(409, { statusCode: 409, code: 'INSUFFICIENT_CREDITS', message: 'Insufficient credits', field: 'value' });
    const err = await failure(api.POST('/api/resellers/{id}/credits', { params: { path: { id: 3 } }, body: { value: 5 } }));
    expect([err.status, err.code, err.message, err.field]).toEqual([409, 'INSUFFICIENT_CREDITS', 'Insufficient credits', 'value']);
    expect(notifyError).toHaveBeenCalledWith(err);

    sent.answer = async () => new Response('not json', { status: 502, statusText: 'Bad Gateway' });
    const silent = await failure(api.GET('/api/profile', { silent: true }));
    expect([silent.code, silent.message]).toEqual(['HTTP_502', 'Bad Gateway']);
    expect(notifyError).toHaveBeenCalledTimes(1);
  });

  it('a 401 ends the session and goes to sign-in, unless the call expects it', async () => {
    sent.answer = async () => json(401, { statusCode: 401, code: 'UNAUTHORIZED', message: 'Sign in to continue' });
    await failure(api.DELETE('/api/auth/sign-out', { noAuthRedirect: true, silent: true }));
    expect(onUnauthorized).not.toHaveBeenCalled();
    await failure(api.GET('/api/profile'));
    expect(storage.has('panel.session')).toBe(false);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(vi.mocked(notifyError).mock.calls[0]?.[0].code).toBe('UNAUTHORIZED');
  });

  it('without a token it goes to sign-in and asks nothing', async () => {
    storage.clear();
    expect((await failure(api.GET('/api/profile'))).status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(sent.requests).toEqual([]);
  });

  it('a network failure or a timeout is the communication error; a cancelled call stays quiet', async () => {
    sent.answer = () => Promise.reject(new TypeError('Failed to fetch'));
    const down = await failure(api.GET('/api/profile'));
    expect([down.status, down.code, down.message]).toEqual([0, 'COMMUNICATION', 'Communication error with the server!']);

    vi.useFakeTimers();
    sent.answer = (r) => new Promise((_, reject) => r.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const slow = failure(api.GET('/api/profile'));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect((await slow).code).toBe('COMMUNICATION');
    expect(notifyError).toHaveBeenCalledTimes(2);

    const caller = new AbortController();
    const cancelled = api.GET('/api/profile', { signal: caller.signal }).catch((e: unknown) => e);
    caller.abort();
    expect(await cancelled).not.toBeInstanceOf(ApiError);
    expect(notifyError).toHaveBeenCalledTimes(2);
  });
});
