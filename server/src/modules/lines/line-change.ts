import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError } from '../../http/errors.ts';
import { endLineConnections } from '../connections/service.ts';
import { chargeable, currentBalance, refund, runIdempotent, spend } from '../credits/service.ts';
import { invalidateFor } from '../dashboard/service.ts';
import { entriesOf, tally } from '../reports/service.ts';
import { nowSec } from '../../lib/clock.ts';
import { writeLog } from '../logs/service.ts';
import { kick, queueLineChange } from '../p2p/service.ts';
import { type SaleVia, tellSale } from '../telegram/service.ts';
import { emitLineEvent } from '../webhooks/service.ts';
import * as repo from './repo.ts';
import { randomCredential } from './rules.ts';
import { type LineChanges, type NewLine, insertLine, lockLine, updateLine } from './write-repo.ts';

// A line change: everything that creating or changing a line implies, in one place. Every feature
// that creates or changes a line — the panel and API-key routes, trials, PIX payments, the Lazy
// Player, migration from another provider, the P2P resync — describes its change as a LineChange
// and hands it to applyLineChange (inside a transaction it holds) or to changeLine (which holds one).
// A new consequence of a line change is added here, once.
//
// Performed by applyLineChange, in this order, in the caller's transaction:
//  1. the row: the insert (its unique username decides a clash) or the update. A paid creation the
//     balance cannot pay is refused before the insert (a reseller at 0 credits creating in a loop
//     would otherwise write and undo a line, and its search rows, each time).
//  2. the line's open connections end when it stops being servable: deleted, blocked, or moved off
//     system 1 (the player API and the edges serve HTTP/IPTV lines only).
//  3. the action-log row (its value_int is what was charged, unless the change says otherwise).
//  4. the ledger: the spend (guarded debit and its ledger row; admins never pay) or the refund.
//     Its credits.low event goes out before the event of what it paid for.
//  5. the P2P outbox: what the P2P server must learn (a P2P line changed, entered or left system
//     2/3, was deleted; everything with `resync`). The worker is kicked after the commit (changeLine).
//  6. the webhook event to the owner (line.created, line.renewed, line.blocked), and a sale the
//     owner did not make by hand (an API key, the trial page, the Telegram bot) told in its Telegram chat.
//  7. the dashboard stamp, last: on PostgreSQL the debit holds the payer's balance row and the stamp
//     the admins' shared cache rows until COMMIT, so they are taken as late as possible.
//
// Locks, in this order, so two changes never deadlock: the line's row (loadLineForChange; PostgreSQL
// only, SQLite serialises writers with BEGIN IMMEDIATE), then reseller rows in id order (the ledger).
//
// Kept by the database itself (triggers), so no code path can forget them:
//  - per-reseller line counts: 006_line_counters, then 032_line_counts (totals per status);
//  - the owner's top-level reseller on each line: 019_lines_top_reseller;
//  - the username/notes search rows: 022_line_search, 025_line_search_deferral, 026_line_search_triggers.
// Outside this file on purpose: a removed reseller's lines change owner in bulk (handOverLines; the
// counts and top reseller follow by trigger, the removal stamps both dashboards), and the P2P worker
// records each delivery's sync state on the line (p2p/outbox-repo.ts).

/** What a change implies besides the row: the ledger, the log, the event, the P2P resync. */
interface Consequences {
  /** credits the actor pays for it: a guarded debit and its ledger row (admins never pay) */
  charge?: { amount: number; reason: string; key?: string };
  /** credits given back to the actor for an earlier charge of this line (a compensating ledger row) */
  refund?: { amount: number; reason: string };
  /** the action-log row; `value_int` defaults to what was charged (or refunded) */
  log: { action: string; value?: string | null; value_int?: number | null };
  /** the webhook event the line's owner hears */
  event?: 'line.created' | 'line.renewed' | 'line.blocked';
  /** the sale was made for the owner by its trial page or its Telegram bot (an API key's is known from the actor) */
  via?: 'trial_page' | 'telegram';
  /** send the line's state to the P2P server even when nothing it holds changed */
  resync?: boolean;
  /** an applied PIX payment's amount in cents, for the reports */
  pixCents?: number;
  /** the removal undoes the line's creation (a self-service trial whose message could not go out): the reports stop counting it as created */
  undoesCreation?: boolean;
}

/** A new line (owned by the actor): an empty username is generated, and drawn again while taken. */
export type LineCreation = Consequences & { create: Omit<NewLine, 'member_id' | 'username'> & { username?: string } };

/** A change to a line loaded by loadLineForChange; `set` omitted when the row itself does not change. */
export type LineUpdate = Consequences & { line: repo.LineRow; set?: LineChanges };

export type LineChange = LineCreation | LineUpdate;

export interface AppliedLineChange {
  /** the line as the lists show it after the change; undefined once deleted */
  line: repo.LineRow | undefined;
  /** credits taken from the actor (0 for admins and free changes) */
  charged: number;
  /** something was queued for the P2P server: kick its worker once the transaction commits */
  queued: boolean;
}

/** Loads a visible line for a change; on PostgreSQL its row is locked first so concurrent changes queue. */
export async function loadLineForChange(deps: Deps, trx: Tx, actor: AuthUser, id: number): Promise<repo.LineRow> {
  await lockLine(trx, deps.database.dialect, id);
  const row = await repo.findVisibleLine(trx, actor, id);
  if (!row) throw appError('NOT_FOUND', { params: { what: 'User' } });
  return row;
}

/** A line stops being servable (its connections end) when it is deleted, blocked or leaves system 1. */
const stopsServing = (set: LineChanges) => set.deleted_at != null || set.enabled === 0 || (set.system !== undefined && set.system !== 1);

async function insertNewLine(trx: Tx, actor: AuthUser, values: LineCreation['create']): Promise<repo.LineRow> {
  const given = values.username?.trim();
  for (;;) {
    // the caller owns it: its username is the line's master_username
    const row = await insertLine(trx, { ...values, member_id: actor.id, username: given || randomCredential() }, actor.username);
    if (row) return row;
    if (given) throw appError('USERNAME_TAKEN');
  }
}

/** Performs a line change and all it implies (the list at the top of this file), in the caller's transaction. */
export async function applyLineChange(deps: Deps, trx: Tx, actor: AuthUser, change: LineChange): Promise<AppliedLineChange> {
  const price = change.charge ? chargeable(actor, change.charge.amount) : 0;
  let before: repo.LineRow | undefined;
  let after: repo.LineRow | undefined;
  if ('create' in change) {
    if (price > (await currentBalance(trx, actor.id))) throw appError('INSUFFICIENT_CREDITS');
    after = await insertNewLine(trx, actor, change.create);
  } else {
    before = change.line;
    const set = change.set ?? {};
    if (Object.keys(set).length > 0) await updateLine(trx, before.id, set);
    if (stopsServing(set)) await endLineConnections(deps, trx, before.id);
    after = await repo.findVisibleLine(trx, actor, before.id); // undefined once deleted
  }
  const line = (before ?? after) as repo.LineRow;

  const { log } = change;
  const moved = change.charge ? price : (change.refund?.amount ?? null);
  await writeLog(trx, { type_log: 'user', action: log.action, actor_id: actor.id, reseller_id: line.member_id, target_user: line.username, value: log.value ?? null, value_int: log.value_int !== undefined ? log.value_int : moved });

  const charged = change.charge ? await spend(trx, actor, change.charge.amount, change.charge.reason, { lineId: line.id }, change.charge.key) : 0;
  if (change.refund && change.refund.amount > 0) await refund(trx, actor.id, change.refund.amount, { reason: change.refund.reason, actorId: actor.id, lineId: line.id });

  // A new line starts on system 1 (HTTP/IPTV), which the P2P server does not hold.
  const queued = before !== undefined && (await queueLineChange(trx, before, after, change.resync));
  if (queued && after) after = await repo.findVisibleLine(trx, actor, after.id); // its sync state moved
  if (change.event && after) await emitLineEvent(trx, line.member_id, change.event, after);
  const via: SaleVia | undefined = actor.apiKey ? { apiKey: actor.apiKey.name } : change.via;
  // the seller hears of it: the account whose key or page made the sale and whose credits paid, which
  // for a parent's key on a sub-reseller's line is the parent (its key's name is not the owner's to see)
  if (via && after && (change.event === 'line.created' || change.event === 'line.renewed')) await tellSale(deps, trx, { sellerId: actor.id, via, event: change.event, line: after, credits: charged });
  const state = (l: repo.LineRow | undefined) => l && { expires: l.exp_date, trial: l.is_trial === 1 };
  await tally(deps, trx, entriesOf({
    owner: line.member_id,
    payer: actor.id,
    now: nowSec(),
    before: state(before),
    after: state(after),
    renewed: change.event === 'line.renewed',
    netCredits: charged - (change.refund?.amount ?? 0),
    pixCents: change.pixCents,
    undone: change.undoesCreation,
  }));
  await invalidateFor(trx, line.member_id); // last: see 8. at the top
  return { line: after, charged, queued };
}

/**
 * One change to one visible line in its own transaction (idempotent when `key` is given): the line
 * is loaded and locked, `decide` says what changes (or undefined: nothing), applyLineChange performs
 * it, and the fresh row is the answer. The P2P worker is kicked once it committed.
 */
export async function changeLine(
  deps: Deps,
  actor: AuthUser,
  id: number,
  decide: (trx: Tx, line: repo.LineRow) => Promise<Omit<LineUpdate, 'line'> | undefined>,
  idempotency: { key?: string; fingerprint?: unknown } = {},
): Promise<repo.LineRow> {
  let queued = false;
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key: idempotency.key, fingerprint: [id, idempotency.fingerprint] }, 200, async (trx) => {
    const line = await loadLineForChange(deps, trx, actor, id);
    const change = await decide(trx, line);
    if (!change) return line;
    const applied = await applyLineChange(deps, trx, actor, { ...change, line });
    queued = applied.queued;
    return applied.line as repo.LineRow; // deleted: the route answers 204
  });
  if (queued) kick();
  return outcome.body;
}
