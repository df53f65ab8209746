// Calls to the outside services the admin configured (TMDB, Lazy Player): bounded in time and size.

/** The other side failed, timed out or answered nonsense: a 4xx for our client, never a 5xx of ours. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    /** the other side's HTTP status, when it answered */
    public status?: number,
  ) {
    super(message);
  }
}

export interface LimitedResponse {
  status: number;
  text: string;
}

/** fetch with a deadline and a cap on the answer's size (read as text). */
export async function fetchLimited(url: string, init: RequestInit, { timeoutMs = 10_000, maxBytes = 1_000_000 } = {}): Promise<LimitedResponse> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new UpstreamError(timedOut ? `no answer within ${timeoutMs} ms` : `unreachable (${(err as Error).message})`);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new UpstreamError(`answer over ${maxBytes} bytes`, res.status);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body ?? []) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new UpstreamError(`answer over ${maxBytes} bytes`, res.status);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw new UpstreamError(`answer cut short (${(err as Error).message})`, res.status);
  }
  return { status: res.status, text: Buffer.concat(chunks).toString('utf8') };
}
