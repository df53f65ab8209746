import type { Tx } from '../../db/tx.ts';
import { nowMs } from '../../lib/clock.ts';
import * as repo from './outbox-repo.ts';
import { type AccountFields, type LineFields, accountState, isP2pSystem, lineState } from './rules.ts';

// How changes reach the P2P server: each change writes its delivery here, in the change's own
// transaction (so a change is never without its delivery, nor a delivery without its change); the
// worker (worker.ts) sends them. Other modules call `queueLineChange` and then `kick`.

type Put = { login: string; method: 'PUT'; state: object };
type Delete = { login: string; method: 'DELETE' };

async function queue(trx: Tx, kind: repo.SubjectKind, id: number, deliveries: (Put | Delete)[]): Promise<void> {
  if (deliveries.length === 0) return;
  const version = await repo.bumpVersion(trx, kind, id, deliveries.length);
  const now = nowMs();
  let v = version - deliveries.length;
  for (const d of deliveries) {
    v += 1;
    await repo.insertDelivery(trx, {
      subject_kind: kind,
      subject_id: id,
      version: v,
      login: d.login,
      method: d.method,
      body: d.method === 'PUT' ? JSON.stringify(d.state) : null,
      created_at: Math.floor(now / 1000),
      next_attempt_at: now,
    });
  }
}

/**
 * Queues an account's current state (its login is its email), its removal, or, after a username
 * change, the removal of the old login followed by the new one.
 */
export function queueAccount(trx: Tx, account: AccountFields & { id: number; email: string }, change: 'put' | 'delete', oldEmail?: string) {
  const put: Put = { login: account.email, method: 'PUT', state: accountState(account) };
  if (change === 'delete') return queue(trx, 'account', account.id, [{ login: account.email, method: 'DELETE' }]);
  if (oldEmail && oldEmail.toLowerCase() !== account.email.toLowerCase()) {
    return queue(trx, 'account', account.id, [{ login: oldEmail, method: 'DELETE' }, put]);
  }
  return queue(trx, 'account', account.id, [put]);
}

/**
 * After a change to a line (`after` undefined: deleted): queues what the P2P server must learn.
 * A line entering system 2/3 is created there, one leaving it (or deleted) removed, one staying
 * updated when what the server holds changed (or always, with `force`: the resync action).
 * Returns whether something was queued.
 */
export async function queueLineChange(trx: Tx, before: LineFields, after: LineFields | undefined, force = false): Promise<boolean> {
  const wasP2p = isP2pSystem(before.system);
  const isP2p = after !== undefined && isP2pSystem(after.system);
  let deliveries: (Put | Delete)[] = [];
  if (isP2p) {
    const state = lineState(after);
    const changed = !wasP2p || JSON.stringify(state) !== JSON.stringify(lineState(before));
    if (changed || force) deliveries = [{ login: after.username, method: 'PUT', state }];
  } else if (wasP2p) {
    deliveries = [{ login: before.username, method: 'DELETE' }];
  }
  await queue(trx, 'line', before.id, deliveries);
  return deliveries.length > 0;
}

// In-process wake-up: a change committed here is sent at once instead of at the next poll.
const listeners = new Set<() => void>();

/** Call after the transaction that queued deliveries committed. */
export function kick(): void {
  for (const listener of listeners) listener();
}

export function onKick(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What an admin sees: undelivered changes waiting (pending) or retrying after an error (failed). */
export async function queueStatus(db: Tx) {
  const [figures, errors] = await Promise.all([repo.queueFigures(db), repo.recentErrors(db, 10)]);
  return { ...figures, errors };
}
