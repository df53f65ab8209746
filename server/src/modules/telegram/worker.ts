import { randomBytes } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { withTx } from '../../db/tx.ts';
import { nowMs, nowSec } from '../../lib/clock.ts';
import { type Ticker, startTicker } from '../../lib/ticker.ts';
import { takeLease } from '../../repos/scheduler-leases-repo.ts';
import { openSecret } from '../twofactor/service.ts';
import { REPEATABLE, type Send, botApi, failureOf, perform } from './bot-api.ts';
import * as repo from './repo.ts';
import { TOKEN_PURPOSE } from './settings.ts';

// The bots' send queue (docs/telegram.md), worked by the one process holding the `telegram` lease.
// Within Telegram's limits: in a round (one a second) each chat gets at most its oldest unsent
// message (1 a second per chat, in order) and each bot at most PER_BOT_PER_ROUND (under its 30 a
// second); a 429 stops the bot for its retry_after. Never twice: a row is claimed before its send
// and recorded after; Telegram failing (5xx) or a request that never left retries it (1, 2, 4 ... s,
// up to 5 minutes, for a day); a request with no answer may have arrived, so it is not sent again
// (unless repeating it is harmless); a row whose process died mid-send is marked failed. A token
// Telegram refuses marks the bot revoked (its page says so) and fails what it had queued; a bot
// switched off sends nothing more.

const PER_BOT_PER_ROUND = 25;
const BATCH = 500;
/** a claimed row not recorded after this long belonged to a process that died */
const CLAIM_MS = 5 * 60_000;
const RETRY_CAP_MS = 5 * 60_000;
const GIVE_UP_SECONDS = 86_400;
const KEEP_SECONDS = 7 * 86_400;
const PRUNE_EVERY_MS = 3_600_000;
/** a round's sends are bounded (25 per bot, each within INTEGRATION_TIMEOUT_MS); the claims keep a late round from sending twice */
const LEASE_SECONDS = 60;

/** A bot's share of the due rows (each the first of its chat: repo.due), bots paused by a 429 left out. */
function byBot(rows: repo.OutboxRow[], paused: Set<number>): Map<number, repo.OutboxRow[]> {
  const out = new Map<number, repo.OutboxRow[]>();
  for (const r of rows) {
    if (paused.has(r.reseller_id)) continue;
    const mine = out.get(r.reseller_id) ?? [];
    if (mine.length < PER_BOT_PER_ROUND) out.set(r.reseller_id, [...mine, r]);
  }
  return out;
}

/** One round of the queue; exported for the tests, which run rounds instead of waiting for the timer. */
export async function sendRound(deps: Deps, opts: { retryBaseMs?: number } = {}): Promise<number> {
  const db = deps.database.db;
  const retryBaseMs = opts.retryBaseMs ?? 1000;
  // a round ends well inside the lease, so no other process starts sending beside it
  const deadline = nowMs() + (LEASE_SECONDS * 1000) / 2;
  await repo.failAbandoned(db, nowMs());
  const rows = await repo.due(db, nowMs(), BATCH);
  const paused = new Set<number>();
  const bots = new Map<number, repo.BotRow | undefined>();
  for (const r of rows) if (!bots.has(r.reseller_id)) bots.set(r.reseller_id, await repo.botOf(db, r.reseller_id));
  for (const [id, bot] of bots) if (bot?.paused_until_ms && bot.paused_until_ms > nowMs()) paused.add(id);
  let sent = 0;
  await Promise.all(
    [...byBot(rows, paused)].map(async ([resellerId, mine]) => {
      const bot = bots.get(resellerId);
      const token = bot && bot.revoked_at === null && bot.enabled === 1 ? await openSecret(deps, resellerId, bot.token_sealed, TOKEN_PURPOSE) : null;
      if (!token) {
        await repo.failPendingOf(db, resellerId, bot?.enabled === 0 ? 'the bot was switched off' : 'the bot has no usable token');
        return;
      }
      const api = await botApi(deps.config, token);
      for (const row of mine) {
        if (nowMs() > deadline) return;
        if (!(await repo.claim(db, row.id, nowMs() + CLAIM_MS))) continue;
        try {
          await perform(api, row.chat_id, { method: row.method as Send['method'], payload: JSON.parse(row.payload) });
          await repo.finish(db, row.id, { status: 'sent', attempts: row.attempts + 1, sent_at: nowSec(), last_error: null });
          sent++;
        } catch (err) {
          const f = failureOf(err);
          const attempts = row.attempts + 1;
          if (f.kind === 'revoked') {
            await repo.finish(db, row.id, { status: 'failed', attempts, last_error: f.detail });
            await withTx(deps.database, async (trx) => {
              await repo.updateBot(trx, resellerId, { revoked_at: nowSec() });
              await repo.failPendingOf(trx, resellerId, `the bot's token was refused: ${f.detail}`);
            });
            return;
          }
          if (f.kind === 'slow_down') {
            // this row goes first again once the bot may speak; nothing of the bot before then
            const until = nowMs() + f.retryAfter * 1000;
            await repo.finish(db, row.id, { status: 'pending', attempts, next_at_ms: until, last_error: f.detail });
            await withTx(deps.database, async (trx) => {
              await repo.updateBot(trx, resellerId, { paused_until_ms: until });
              await repo.delayPendingOf(trx, resellerId, until);
            });
            return;
          }
          const again = f.kind === 'retry' || (f.kind === 'unknown' && REPEATABLE.has(row.method as Send['method']));
          const giveUp = !again || nowSec() - row.created_at >= GIVE_UP_SECONDS;
          if (giveUp) await repo.finish(db, row.id, { status: 'failed', attempts, last_error: f.detail });
          else await repo.finish(db, row.id, { status: 'pending', attempts, next_at_ms: nowMs() + Math.min(RETRY_CAP_MS, retryBaseMs * 2 ** (attempts - 1)), last_error: f.detail });
        }
      }
    }),
  );
  return sent;
}

export function startTelegramWorker(deps: Deps, opts: { pollMs?: number; log?: (msg: string, err?: unknown) => void } = {}): Ticker {
  const pollMs = opts.pollMs ?? 1000;
  const holder = randomBytes(8).toString('hex');
  const log = opts.log ?? ((msg, err) => console.error(`telegram: ${msg}`, err ?? ''));
  let lastPrune = 0;
  async function runRound() {
    const now = nowSec();
    // one sender across processes and hosts, so the per-chat and per-bot pace holds; a dead holder's lease runs out
    if (!(await takeLease(deps.database.db, 'telegram', holder, now, LEASE_SECONDS))) return;
    await sendRound(deps);
    if (nowMs() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = nowMs();
      await repo.pruneOutbox(deps.database.db, now - KEEP_SECONDS);
      await repo.pruneUpdates(deps.database.db, now - KEEP_SECONDS);
    }
  }
  return startTicker(runRound, { everyMs: pollMs, onError: (err) => log('round failed', err) });
}
