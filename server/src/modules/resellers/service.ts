import { type Tx, withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError, validation } from '../../http/errors.ts';
import { type Order, parseOrder, cursorOf } from '../../http/paging.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { revokeAllSessions } from '../auth/service.ts';
import { hashPassword } from '../auth/service.ts';
import { runIdempotent } from '../credits/service.ts';
import { invalidateFor } from '../dashboard/service.ts';
import { writeLog } from '../logs/service.ts';
import { intSetting } from '../settings/service.ts';
import { loadVisible, requireManager, requireManagerOf } from './access.ts';
import { giveCredits } from './credits.ts';
import { assertStrongPassword } from './passwords.ts';
import { firstGroupOfType, groupById } from './groups-repo.ts';
import * as repo from './repo.ts';

/** The reseller list's sorts (public name -> column); its `order_by` schema is built from the keys. */
export const ORDER_FIELDS = {
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

const clean = (s: string | undefined) => {
  const v = s?.trim();
  return v ? v : null;
};

export function list({ database }: Deps, actor: AuthUser, q: repo.ResellerFilters & { page?: number; per?: number; order_by?: string; after?: string; before?: string }) {
  requireManager(actor);
  return repo.pageResellers(database.db, actor, q, { page: q.page, per: q.per, order: parseOrder(q.order_by, ORDER_FIELDS, DEFAULT_ORDER), cursor: cursorOf(q) });
}

/** The list's rows for an export: every match in id order, streamed (same filters and roles as `list`). */
export function exportRows({ database }: Deps, actor: AuthUser, q: repo.ResellerFilters) {
  requireManager(actor);
  return repo.iterateResellers(database.db, actor, q);
}

export async function get({ database }: Deps, actor: AuthUser, id: number) {
  const row = await repo.findVisible(database.db, actor, id, true);
  if (!row) throw appError('NOT_FOUND', { params: { what: 'Reseller' } });
  return row;
}

export async function selectSearch({ database }: Deps, actor: AuthUser, search: string) {
  requireManager(actor);
  const rows = await repo.searchVisible(database.db, actor, search, false);
  return { data: rows.map((r) => ({ label: r.username, value: String(r.id) })) };
}

export async function create(deps: Deps, actor: AuthUser, input: ResellerInput, idempotencyKey?: string) {
  requireManager(actor);
  await assertStrongPassword(input.password, [input.username, input.email, input.whatsapp, input.telegram]);
  const password_hash = await hashPassword(input.password); // slow: outside the write transaction
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key: idempotencyKey, fingerprint: ['create-reseller', { ...input, password: undefined }] }, 201, async (trx) => {
    const group = await groupById(trx, input.member_group_id);
    if (!group) throw validation('member_group_id', 'unknown group', 'UNKNOWN_CHOICE');
    if (actor.type !== 'admin' && group.type !== 'reseller') throw validation('member_group_id', 'masters can only create resellers');
    if (await repo.usernameTaken(trx, input.username)) throw appError('USERNAME_TAKEN');
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
    const created = (await repo.findVisible(trx, actor, id))!;
    await invalidateFor(trx, id); // last, as every change does (dashboard/repo.ts stampInvalidated)
    return created;
  });
  return outcome.body;
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
      throw appError('USERNAME_TAKEN');
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
    if (row.group_type !== 'reseller') throw appError('ALREADY_MASTER');
    const minimum = await intSetting(trx, 'master_min_credit_create');
    if (row.credits < minimum) {
      throw appError('INSUFFICIENT_CREDITS');
    }
    const master = await firstGroupOfType(trx, 'master');
    await repo.updateReseller(trx, id, { member_group_id: master.group_id });
    await writeLog(trx, { type_log: 'reseller', action: 'reseller_to_master', actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value_int: row.credits });
    return (await repo.findVisible(trx, actor, id))!;
  });
}

export { changeCredits } from './credits.ts';
export { deactivate } from './deactivate.ts';
export type { ResellerRow } from './repo.ts';

/** A reseller the caller may reach (itself too with `includeSelf`), read inside the caller's transaction when it passes one. */
export const findVisibleReseller = (db: Tx, actor: AuthUser, id: number, includeSelf = false) => repo.findVisible(db, actor, id, includeSelf);
export { listGroups } from './groups.ts';
