// The server's one source of "now". Every time-dependent rule (expiry, trials, reminders' stages
// and sending hours, leases, sessions and tokens, signed links, payments' expiry, caches' ages)
// reads it, so a test moves time with `advanceClock` instead of sleeping. Durations measured for
// logs and benches use performance.now(), which is not "now".

let offsetMs = 0;
/** set while a test holds time still */
let frozenAtMs: number | undefined;

/** Milliseconds since the epoch. */
export function nowMs(): number {
  return frozenAtMs ?? Date.now() + offsetMs;
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
  if (frozenAtMs !== undefined) frozenAtMs += ms;
  else offsetMs += ms;
}

/**
 * Tests only: holds this process's clock at its current reading, so a rule of whole periods (a
 * 30-second TOTP step) cannot change period while a slow test runs; `advanceClock` still moves it.
 */
export function freezeClock(): void {
  frozenAtMs = nowMs();
}

/** Tests only: the real time again. */
export function resetClock(): void {
  offsetMs = 0;
  frozenAtMs = undefined;
}
