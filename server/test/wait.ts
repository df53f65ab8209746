// Waiting on what a worker or another process records, instead of sleeping a fixed time: the
// check is asked again every `everyMs` until it holds or `timeoutMs` of real time has passed.
// The deadline is real time (Date.now), not the product's clock, which a test may move.

export interface WaitOptions {
  /** how long to wait in all before failing */
  timeoutMs?: number;
  /** what is awaited, for the error when it never comes */
  what?: string;
  /** the pause between two checks */
  everyMs?: number;
}

/** Resolves with the check's first truthy answer; throws once the deadline passes without one. */
export async function waitFor<T>(check: () => T | Promise<T>, opts: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 10_000, what = 'the condition', everyMs = 20 } = opts;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await check();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
