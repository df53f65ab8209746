import { type Tx, withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { AppError, forbidden, notFound, validation } from '../../http/errors.ts';
import { type Order, parseOrder } from '../../http/paging.ts';
import type { AuthUser } from '../auth/service.ts';
import { revokeAllSessions } from '../auth/sessions.ts';
import { hashPassword } from '../auth/tokens.ts';
import { credit, debit, lockResellers } from '../credits/ledger.ts';
import { type Outcome, runIdempotent } from '../credits/idempotency.ts';
import { invalidateFor } from '../dashboard/cache.ts';
import { handOverLines } from '../lines/service.ts';
import { writeLog } from '../logs/write.ts';
import { intSetting } from '../settings/service.ts';
import { assertStrongPassword } from './passwords.ts';
import { firstGroupOfType, groupById } from './groups-repo.ts';
import * as repo from './repo.ts';
import { isBelow, moveChildren } from './tree-repo.ts';

const ORDER_FIELDS = {
  id: 'r.id',
  username: 'r.username',
  credits: 'r.credits',
  master_username: 'o.username',
  last_login: 'r.last_login',
  group_name: 'g.group_name',
  status: 'r.status',
};
const DEFAULT_ORDER: Order = { column: 'r.id', direction: 'desc' };

export interface ResellerInput {
  username: string;
  password: string;
  member_group_id: number;
  email?: string;
  credits?: number;
  whatsapp?: string;
  telegram?: string;
  notes?: string;
}
export type ResellerUpdate = Omit<Partial<ResellerInput>, 'credits' | 'member_group_id'>;

/** Plain resellers have no sub-resellers: every reseller-management route is closed to them. */
function requireManager(actor: AuthUser): void {
  if (actor.type === 'reseller') throw forbidden();
}

/** On routes about one reseller, a plain reseller has nothing in scope: 404 like any outsider. */
function requireManagerOf(actor: AuthUser): void {
  if (actor.type === 'reseller') throw notFound('Reseller');
}

const clean = (s: string | undefined) => {
  const v = s?.trim();
  return v ? v : null;
};

export function list({ database }: Deps, actor: AuthUser, q: repo.ResellerFilters & { page?: number; per?: number; order_by?: string }) {
  requireManager(actor);
  return repo.pageResellers(database.db, actor, q, { page: q.page, per: q.per, order: parseOrder(q.order_by, ORDER_FIELDS, DEFAULT_ORDER) });
}

/** The list's rows for an export: every match in id order, streamed (same filters and roles as `list`). */
export function exportRows({ database }: Deps, actor: AuthUser, q: repo.ResellerFilters) {
  requireManager(actor);
  return repo.iterateResellers(database.db, actor, q);
}

export async function get({ database }: Deps, actor: AuthUser, id: number) {
  const row = await repo.findVisible(database.db, actor, id, true);
  if (!row) throw notFound('Reseller');
  return row;
}

export async function selectSearch({ database }: Deps, actor: AuthUser, search: string) {
  requireManager(actor);
  const rows = await repo.searchVisible(database.db, actor, search, false);
  return { data: rows.map((r) => ({ label: r.username, value: String(r.id) })) };
}

async function loadVisible(db: Parameters<typeof repo.findVisible>[0], actor: AuthUser, id: number) {
  const row = await repo.findVisible(db, actor, id);
  if (!row) throw notFound('Reseller');
  return row;
}

export async function create(deps: Deps, actor: AuthUser, input: ResellerInput, idempotencyKey?: string) {
  requireManager(actor);
  await assertStrongPassword(input.password, [input.username, input.email, input.whatsapp, input.telegram]);
  const password_hash = await hashPassword(input.password); // slow: outside the write transaction
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key: idempotencyKey, fingerprint: ['create-reseller', { ...input, password: undefined }] }, 201, async (trx) => {
    const group = await groupById(trx, input.member_group_id);
    if (!group) throw validation('member_group_id', 'unknown group');
    if (actor.type !== 'admin' && group.type !== 'reseller') throw validation('member_group_id', 'masters can only create resellers');
    if (await repo.usernameTaken(trx, input.username)) throw new AppError(409, 'USERNAME_TAKEN', 'This username is already taken', 'username');
    const id = await repo.insertReseller(trx, {
      username: input.username,
      password_hash,
      email: clean(input.email),
      whatsapp: clean(input.whatsapp),
      telegram: clean(input.telegram),
      notes: clean(input.notes),
      member_group_id: group.group_id,
      owner_id: actor.id,
    });
    const amount = input.credits ?? 0;
    if (amount > 0) await giveCredits(deps, trx, actor, id, amount, idempotencyKey);
    await writeLog(trx, { type_log: 'reseller', action: 'reseller_create', actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value: input.username, value_int: amount });
    return (await repo.findVisible(trx, actor, id))!;
  });
  await invalidateFor(deps.database.db, outcome.body.id);
  return outcome.body;
}

/** Adds credits to `targetId`: masters pay from their own balance, admins mint. */
async function giveCredits(deps: Deps, trx: Parameters<typeof credit>[0], actor: AuthUser, targetId: number, amount: number, key?: string) {
  if (actor.type === 'admin') {
    await credit(trx, { resellerId: targetId, amount, reason: 'admin_mint', actorId: actor.id, counterpartyId: actor.id, idempotencyKey: key });
    return;
  }
  await lockResellers(trx, deps.database.dialect, [actor.id, targetId]);
  await debit(trx, { resellerId: actor.id, amount, reason: 'transfer_out', actorId: actor.id, counterpartyId: targetId, idempotencyKey: key });
  await credit(trx, { resellerId: targetId, amount, reason: 'transfer_in', actorId: actor.id, counterpartyId: actor.id, idempotencyKey: key });
}

export async function update(deps: Deps, actor: AuthUser, id: number, input: ResellerUpdate) {
  requireManagerOf(actor);
  let password_hash: string | undefined;
  if (input.password) {
    const current = await loadVisible(deps.database.db, actor, id);
    await assertStrongPassword(input.password, [input.username ?? current.username, input.email ?? current.email, input.whatsapp ?? current.whatsapp, input.telegram ?? current.telegram]);
    password_hash = await hashPassword(input.password);
  }
  return withTx(deps.database, async (trx) => {
    await loadVisible(trx, actor, id);
    if (input.username !== undefined && (await repo.usernameTaken(trx, input.username, id))) {
      throw new AppError(409, 'USERNAME_TAKEN', 'This username is already taken', 'username');
    }
    const changes = {
      ...(input.username !== undefined ? { username: input.username } : {}),
      ...(password_hash ? { password_hash } : {}),
      ...(input.email !== undefined ? { email: clean(input.email) } : {}),
      ...(input.whatsapp !== undefined ? { whatsapp: clean(input.whatsapp) } : {}),
      ...(input.telegram !== undefined ? { telegram: clean(input.telegram) } : {}),
      ...(input.notes !== undefined ? { notes: clean(input.notes) } : {}),
    };
    if (Object.keys(changes).length > 0) await repo.updateReseller(trx, id, changes);
    if (password_hash) await revokeAllSessions(trx, id);
    await writeLog(trx, { type_log: 'reseller', action: 'reseller_update', actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value: Object.keys(changes).join(',') });
    return (await repo.findVisible(trx, actor, id))!;
  });
}

export async function setStatus(deps: Deps, actor: AuthUser, id: number, status: 0 | 1) {
  requireManagerOf(actor);
  return withTx(deps.database, async (trx) => {
    await loadVisible(trx, actor, id);
    await repo.updateReseller(trx, id, { status });
    if (status === 0) await revokeAllSessions(trx, id);
    await writeLog(trx, { type_log: 'reseller', action: status === 0 ? 'reseller_block' : 'reseller_unblock', actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id });
    return (await repo.findVisible(trx, actor, id))!;
  });
}

export async function toMaster(deps: Deps, actor: AuthUser, id: number) {
  requireManagerOf(actor);
  return withTx(deps.database, async (trx) => {
    const row = await loadVisible(trx, actor, id);
    if (row.group_type !== 'reseller') throw new AppError(409, 'ALREADY_MASTER', 'This reseller is already a master');
    const minimum = await intSetting(trx, 'master_min_credit_create');
    if (row.credits < minimum) {
      throw new AppError(409, 'INSUFFICIENT_CREDITS', 'O revendedor não tem créditos suficientes para se tornar um revendedor master');
    }
    const master = await firstGroupOfType(trx, 'master');
    await repo.updateReseller(trx, id, { member_group_id: master.group_id });
    await writeLog(trx, { type_log: 'reseller', action: 'reseller_to_master', actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value_int: row.credits });
    return (await repo.findVisible(trx, actor, id))!;
  });
}

/**
 * Signed credit change. Masters give from their own balance (positive only); admins mint
 * (positive) or burn (negative, floored at the target's balance).
 */
export async function changeCredits(deps: Deps, actor: AuthUser, id: number, value: number, idempotencyKey?: string): Promise<Outcome<unknown>> {
  requireManagerOf(actor);
  if (value === 0) throw validation('value', 'must not be 0');
  if (value < 0 && actor.type !== 'admin') throw validation('value', 'must be greater than 0');
  return runIdempotent(deps.database, { actorId: actor.id, key: idempotencyKey, fingerprint: ['credits', id, value] }, 200, async (trx) => {
    // Lock first: a burn is floored at the balance it reads.
    await lockResellers(trx, deps.database.dialect, actor.type === 'admin' ? [id] : [actor.id, id]);
    const target = await loadVisible(trx, actor, id);
    if (value > 0) {
      await giveCredits(deps, trx, actor, id, value, idempotencyKey);
    } else {
      const burn = Math.min(-value, target.credits);
      if (burn > 0) await debit(trx, { resellerId: id, amount: burn, reason: 'admin_burn', actorId: actor.id, counterpartyId: actor.id, idempotencyKey });
    }
    await writeLog(trx, {
      type_log: 'credits',
      action: value > 0 ? 'add_credits' : 'remove_credits',
      actor_id: actor.id,
      reseller_id: actor.id,
      target_reseller_id: id,
      value_int: value > 0 ? value : -Math.min(-value, target.credits),
    });
    return (await repo.findVisible(trx, actor, id))!;
  });
}

/** Admin only: removes a reseller, handing its sub-resellers, lines and credits to `targetId`. */
export async function deactivate(deps: Deps, actor: AuthUser, id: number, targetId: number) {
  if (actor.type !== 'admin') throw forbidden();
  if (targetId === id) throw validation('target_id', 'must be another reseller');
  const result = await withTx(deps.database, async (trx) => {
    const row = await loadVisible(trx, actor, id);
    const target = await repo.findVisible(trx, actor, targetId, true);
    if (!target) throw notFound('Target reseller');
    if (await isBelow(trx, targetId, id)) {
      throw validation('target_id', 'must not be below the reseller being removed');
    }
    if (row.sub_resellers_count > 0 && target.group_type === 'reseller') {
      throw validation('target_id', 'sub-resellers can only move to a master or an admin');
    }
    await lockResellers(trx, deps.database.dialect, [id, targetId]);
    await moveChildren(trx, id, targetId);
    await handOverLines(trx, id, targetId);

    const credits = await repo.balanceOf(trx, id);
    if (credits > 0) {
      await debit(trx, { resellerId: id, amount: credits, reason: 'deactivate_out', actorId: actor.id, counterpartyId: targetId });
      await credit(trx, { resellerId: targetId, amount: credits, reason: 'deactivate_in', actorId: actor.id, counterpartyId: id });
    }
    await repo.markDeactivated(trx, id, Math.floor(Date.now() / 1000));
    await revokeAllSessions(trx, id);
    await writeLog(trx, { type_log: 'reseller', action: 'reseller_deactivate', actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value: `transferall:${targetId}`, value_int: credits });
    return { id, target_id: targetId, credits_moved: credits, sub_resellers_moved: row.sub_resellers_count, clients_moved: row.clients_count };
  });
  await invalidateFor(deps.database.db, id);
  await invalidateFor(deps.database.db, targetId);
  return result;
}

export type { ResellerRow } from './repo.ts';

/** A reseller the caller may reach (itself too with `includeSelf`), read inside the caller's transaction when it passes one. */
export const findVisibleReseller = (db: Tx, actor: AuthUser, id: number, includeSelf = false) => repo.findVisible(db, actor, id, includeSelf);
