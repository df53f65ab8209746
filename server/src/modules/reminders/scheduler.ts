import { randomBytes } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { nowMs, nowSec } from '../../lib/clock.ts';
import { startTicker } from '../../lib/ticker.ts';
import { takeLease } from '../../repos/scheduler-leases-repo.ts';
import { dayStart, inSendingHours } from '../../lib/calendar.ts';
import { type Account, compose } from './compose.ts';
import { paymentsOpen } from '../payments/service.ts';
import * as repo from './repo.ts';
import { type Sender, sendThrough } from './send.ts';
import { type Effective, channelsReady, effectiveSettings } from './settings.ts';
import { type Channel, STAGE_OFFSET_DAYS, type Stage } from './stages.ts';
import { type SendOutcome, whatsappNumber } from './whatsapp.ts';

// The reminder scheduler (docs/reminders.md). Every REMINDERS_TICK_SECONDS the process holding the
// `reminders` lease (one across WORKERS and replicas) sends:
// 1. again: failed messages whose backoff is over, and sends a dead process left `sending` (once);
// 2. new: for each account with reminders on, inside its sending hours, each stage's lines (those
//    whose expiry falls on the calendar day the stage points at), read through the owner's expiry
//    index a page at a time.
// A message row is written (unique per line, stage, expiry and channel) before the gateway is
// called, and its outcome after. At most PER_MINUTE messages per account a minute; an account
// whose gateway fails stops for the tick, the others go on.

const PER_MINUTE = 20;
const PAGE = 100;
const ACCOUNTS_PAGE = 200;
const PARALLEL_ACCOUNTS = 8;
/** accounts doing the panel's own work for a send at once (see `limiter`); the others wait or are at their gateway */
const WORK_SLOTS = 2;
const MAX_ATTEMPTS = 5;
const GIVE_UP_SECONDS = 86_400;
const RETRY_CAP_MS = 30 * 60_000;
const KEEP_SECONDS = 60 * 86_400;
export const LEASE_NAME = 'reminders';

interface AccountRun {
  settings: Effective;
  sender: Sender & Account;
  ready: Record<Channel, boolean>;
  asleep: boolean;
  budget: number;
  /** channels that failed this tick: nothing more goes through them until the next */
  failing: Set<Channel>;
  /** channels with a message waiting out its backoff: no new messages until one goes through */
  backingOff: Set<Channel>;
}

export interface TickResult {
  sent: number;
  failed: number;
  retry: number;
}

export interface TickOptions {
  /** this process's lease holder name; the tick stops when the lease is lost */
  holder: string;
  leaseSeconds: number;
}

/**
 * Runs at most `slots` of the functions given to it at once; the others wait their turn, in order.
 * Each first lets the event loop take what is waiting (requests): at an instant gateway, eight
 * accounts' statements and texts would otherwise run back to back and hold every other request
 * (others' p99 47 -> 30 ms on SQLite at 1M lines while 10,000 messages go out; docs/performance.md).
 */
function limiter(slots: number) {
  let free = slots;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      await new Promise((resolve) => setImmediate(resolve));
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

export async function reminderTick(deps: Deps, now: number, opts: TickOptions = { holder: 'tick', leaseSeconds: 120 }): Promise<TickResult> {
  const db = deps.database.db;
  const tz = deps.config.timeZone;
  const result: TickResult = { sent: 0, failed: 0, retry: 0 };
  // a send's lease outlives the longest call to a gateway; past it, the send is taken again
  const sendLease = Math.ceil(deps.config.integrationTimeoutMs / 1000) + 5;
  const runs = new Map<number, Promise<AccountRun | undefined>>();
  // The panel's own work for a send (its statements, its text) takes one of WORK_SLOTS; a gateway
  // call does not hold one, so a slow gateway still has PARALLEL_ACCOUNTS sends in flight.
  const work = limiter(WORK_SLOTS);

  const accountRun = (id: number) => {
    let run = runs.get(id);
    if (!run) {
      run = (async () => {
        const [settings, contact] = await Promise.all([effectiveSettings(db, id), repo.accountContact(db, id)]);
        if (!contact) return undefined;
        const [started, backingOff, paying] = await Promise.all([repo.startedSince(db, id, now - 60), repo.channelsBackingOff(db, id, now), paymentsOpen(deps, id)]);
        return {
          settings,
          sender: { ...contact, payments_open: paying },
          ready: channelsReady(deps, settings),
          asleep: !inSendingHours(now, tz, settings.quiet_hours),
          budget: PER_MINUTE - started,
          failing: new Set<Channel>(),
          backingOff: new Set(backingOff as Channel[]),
        };
      })();
      runs.set(id, run);
    }
    return run;
  };

  // The tick's clock: `now` moved on by the real time the tick has taken. A send's lease counts
  // from its claim, not from the tick's start: a long tick's late claims must not be born expired.
  const startedMs = nowMs();
  const at = () => now + Math.floor((nowMs() - startedMs) / 1000);
  // The `reminders` lease is renewed as the tick goes (a third of its length at most between
  // renewals), so a slow gateway never lets it run out while this process still sends.
  let renewedMs = startedMs;
  async function keepLease() {
    if (nowMs() - renewedMs < (opts.leaseSeconds * 1000) / 3) return;
    if (!(await takeLease(db, LEASE_NAME, opts.holder, nowSec(), opts.leaseSeconds))) throw new Error('the reminders lease was lost');
    renewedMs = nowMs();
  }

  async function send(run: AccountRun, id: number, line: repo.ReminderLine, stage: Stage, channel: Channel, attempts: number, createdAt: number) {
    run.budget--;
    const text = await work(() => compose(deps, run.settings.templates[stage][run.settings.language], line, run.sender, now));
    const to = channel === 'whatsapp' ? whatsappNumber(line.whatsapp)! : line.email!;
    let out: SendOutcome;
    try {
      out = await sendThrough(deps, channel, run.settings, run.sender, to, text);
    } catch (err) {
      out = { ok: false as const, retry: false, answer: err instanceof AppError ? err.message : String(err), status: null, reason: 'other' };
    }
    const doneAt = at();
    if (out.ok) {
      await work(() => repo.recordOutcome(db, id, { status: 'sent', now: doneAt, httpStatus: out.status, answer: out.answer }));
      result.sent++;
      run.backingOff.delete(channel); // the gateway is back
      return;
    }
    run.failing.add(channel);
    if (out.retry && attempts < MAX_ATTEMPTS && doneAt - createdAt < GIVE_UP_SECONDS) {
      const waitMs = Math.min(RETRY_CAP_MS, deps.config.remindersRetryBaseMs * 2 ** (attempts - 1));
      await work(() => repo.recordOutcome(db, id, { status: 'retry', now: doneAt, httpStatus: out.status, answer: out.answer, next: doneAt + Math.ceil(waitMs / 1000) }));
      result.retry++;
    } else {
      await work(() => repo.recordOutcome(db, id, { status: 'failed', now: doneAt, httpStatus: out.status, answer: out.answer }));
      result.failed++;
    }
  }

  const canSend = (run: AccountRun | undefined, channel: Channel, fresh: boolean): run is AccountRun =>
    !!run && run.settings.enabled && !run.asleep && run.budget > 0 && run.ready[channel] && !run.failing.has(channel) && !(fresh && run.backingOff.has(channel));

  // 1. again
  for (const m of await repo.dueAgain(db, now, 500)) {
    const channel = m.channel as Channel;
    const run = await accountRun(m.reseller_id);
    if (run && (!run.settings.enabled || !run.ready[channel])) {
      await repo.recordOutcome(db, m.id, { status: 'cancelled', now, httpStatus: null, answer: 'reminders or this channel were turned off' });
      continue;
    }
    if (!canSend(run, channel, false)) continue;
    if (m.status === 'sending' && m.attempts >= 2) {
      // taken again once already: the gateway may have it, so it is not sent a third time
      await repo.recordOutcome(db, m.id, { status: 'failed', now, httpStatus: null, answer: 'the process sending it stopped twice; not sent again' });
      result.failed++;
      continue;
    }
    await keepLease();
    if (!(await repo.claimAgain(db, m, at(), at() + sendLease))) {
      const line = await repo.reminderLine(db, m.line_id);
      if (!line || Number(line.exp_date) !== Number(m.exp_date)) await repo.recordOutcome(db, m.id, { status: 'cancelled', now, httpStatus: null, answer: 'the line was renewed, blocked, deleted or opted out' });
      continue;
    }
    const line = await repo.reminderLine(db, m.line_id);
    if (line) await send(run, m.id, line, m.stage as Stage, channel, m.attempts + 1, Number(m.created_at));
  }

  // 2. new
  async function newFor(accountId: number) {
    const run = await work(() => accountRun(accountId));
    if (!run?.settings.enabled || run.asleep) return;
    await keepLease();
    for (const channel of ['whatsapp', 'email'] as const) {
      for (const stage of run.settings.stages) {
        const k = STAGE_OFFSET_DAYS[stage];
        const from = dayStart(now, tz, -k);
        const to = dayStart(now, tz, -k + 1);
        while (canSend(run, channel, true)) {
          const limit = Math.min(PAGE, run.budget);
          const lines = await work(() => repo.dueLines(db, accountId, from, to, stage, channel, limit));
          let claimed = 0;
          for (const line of lines) {
            if (!canSend(run, channel, true)) break;
            const recipient = channel === 'whatsapp' ? whatsappNumber(line.whatsapp) : /^[^\s@]+@[^\s@]+$/.test(line.email ?? '') ? line.email! : undefined;
            const id = await work(async () => {
              await keepLease();
              return repo.claimNew(db, { reseller_id: accountId, line_id: line.id, stage, exp_date: Number(line.exp_date), channel, recipient: recipient ?? (line[channel] ?? '').slice(0, 120), created_at: at(), lease_until: at() + sendLease });
            });
            if (id === undefined) continue;
            claimed++;
            if (!recipient) {
              await repo.recordOutcome(db, id, { status: 'failed', now, httpStatus: null, answer: channel === 'whatsapp' ? 'not a usable WhatsApp number' : 'not a usable e-mail address' });
              result.failed++;
              continue;
            }
            await send(run, id, line, stage, channel, 1, now);
          }
          // a short page is the last; a page another scheduler took whole leaves nothing here either
          if (lines.length < limit || claimed === 0) break;
        }
      }
    }
  }

  for (let after = 0; ; ) {
    const ids = await repo.enabledAccounts(db, after, ACCOUNTS_PAGE);
    if (ids.length === 0) break;
    after = ids.at(-1)!;
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL_ACCOUNTS, ids.length) }, async () => {
        while (next < ids.length) await newFor(ids[next++]!);
      }),
    );
    if (ids.length < ACCOUNTS_PAGE) break;
  }
  return result;
}

export interface ReminderScheduler {
  stop(): Promise<void>;
}

/** Ticks every REMINDERS_TICK_SECONDS in this process, sending when it holds the lease. */
export function startReminderScheduler(deps: Deps, opts: { tickMs?: number; log?: (msg: string, err?: unknown) => void } = {}): ReminderScheduler {
  const tickMs = opts.tickMs ?? deps.config.remindersTickSeconds * 1000;
  const holder = randomBytes(8).toString('hex');
  const leaseSeconds = Math.max(Math.ceil((tickMs * 2) / 1000), Math.ceil(deps.config.integrationTimeoutMs / 1000) * 2 + 10);
  const log = opts.log ?? ((msg, err) => console.error(`reminders: ${msg}`, err ?? ''));
  let lastPrune = 0;

  async function runRound() {
    const now = nowSec();
    if (!(await takeLease(deps.database.db, LEASE_NAME, holder, now, leaseSeconds))) return;
    await reminderTick(deps, now, { holder, leaseSeconds });
    if (nowMs() - lastPrune > 3_600_000) {
      lastPrune = nowMs();
      await repo.prune(deps.database.db, now - KEEP_SECONDS);
    }
  }

  return startTicker(runRound, { everyMs: tickMs, firstInMs: Math.min(tickMs, 1000), onError: (err) => log('tick failed', err) });
}
