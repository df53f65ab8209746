// The background workers' loop: a round, then the next one `everyMs` after it ends (rounds never
// overlap), until stopped; a failed round is logged and the next one runs. `stop` waits for the
// round in progress, so a shutdown leaves no half-done round behind it.

export interface Ticker {
  stop(): Promise<void>;
}

export function startTicker(round: () => Promise<void>, opts: { everyMs: number; firstInMs?: number; onError: (err: unknown) => void }): Ticker {
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    if (stopping) return;
    running = round()
      .catch(opts.onError)
      .finally(() => {
        if (!stopping) timer = setTimeout(tick, opts.everyMs);
      });
  };
  timer = setTimeout(tick, opts.firstInMs ?? 0);
  return {
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
