// The server's one source of "now". Every time-dependent rule (expiry, trials, reminders' stages
// and sending hours, leases, sessions and tokens, signed links, payments' expiry, caches' ages)
// reads it, so a test moves time with `advanceClock` instead of sleeping. Durations measured for
// logs and benches use performance.now(), which is not "now".

let offsetMs = 0;

/** Milliseconds since the epoch. */
export function nowMs(): number {
  return Date.now() + offsetMs;
}

/** Whole seconds since the epoch: what the database's timestamps hold. */
export function nowSec(): number {
  return Math.floor(nowMs() / 1000);
}

/** Now as a Date (calendar and time-zone rules). */
export function nowDate(): Date {
  return new Date(nowMs());
}

/**
 * Tests only: moves this process's clock by `ms` (back when negative). Each test file runs in its
 * own process, so a move never reaches another file; `resetClock` puts it back.
 */
export function advanceClock(ms: number): void {
  offsetMs += ms;
}

/** Tests only: the real time again. */
export function resetClock(): void {
  offsetMs = 0;
}
