import { appError, AppError } from './errors.ts';

// Calls to outside systems (docs/integrations.md): 5 s timeout, at most 1 MB read, NOT_CONFIGURED (503)
// when the system's URL is unset, UPSTREAM_ERROR (502, the outside status in the message) when the
// other side fails. Never a fake success.

export const UPSTREAM_TIMEOUT_MS = 5000;
export const UPSTREAM_MAX_BYTES = 1024 * 1024;

export interface UpstreamAnswer {
  status: number;
  /** the parsed JSON body, or undefined when there was none */
  body: unknown;
}

export interface UpstreamRequest {
  /** names the system in errors, e.g. "P2P server" */
  system: string;
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  json?: unknown;
  /** aborts the call early (server shutdown) */
  signal?: AbortSignal;
}

/** Reads at most UPSTREAM_MAX_BYTES of a body; more is an error, not a truncated answer. */
async function readCapped(res: Response, system: string): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > UPSTREAM_MAX_BYTES) {
      await reader.cancel();
      throw appError('UPSTREAM_ERROR', { params: { system, detail: 'answer larger than 1 MB' } });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One HTTP call. Answers whatever status the other side gave (callers decide what counts as
 * success); network failures, time-outs, oversized or non-JSON bodies are UPSTREAM_ERROR.
 */
export async function callUpstream(req: UpstreamRequest): Promise<UpstreamAnswer> {
  const timeout = AbortSignal.timeout(UPSTREAM_TIMEOUT_MS);
  const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
  let res: Response;
  let text: string;
  try {
    res = await fetch(req.url, {
      method: req.method,
      headers: { accept: 'application/json', ...(req.json === undefined ? {} : { 'content-type': 'application/json' }), ...req.headers },
      body: req.json === undefined ? undefined : JSON.stringify(req.json),
      redirect: 'manual',
      signal,
    });
    text = await readCapped(res, req.system);
  } catch (err) {
    if (err instanceof AppError) throw err;
    const reason = timeout.aborted ? `no answer within ${UPSTREAM_TIMEOUT_MS / 1000} s` : describe(err);
    throw appError('UPSTREAM_ERROR', { params: { system: req.system, detail: reason } });
  }
  if (text.trim() === '') return { status: res.status, body: undefined };
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    if (res.status >= 400) return { status: res.status, body: undefined }; // an error page: the status says enough
    throw appError('UPSTREAM_ERROR', { params: { system: req.system, detail: `answered ${res.status} with a body that is not JSON` } });
  }
}

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
