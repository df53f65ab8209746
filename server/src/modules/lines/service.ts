import type { Kysely } from 'kysely';
import { withTx } from '../../db/tx.ts';
import type { DB } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { AppError, notFound, validation } from '../../http/errors.ts';
import { type Order, parseOrder } from '../../http/paging.ts';
import type { AuthUser } from '../auth/service.ts';
import { assertBouquetIds } from '../bouquets/service.ts';
import { debit, lockResellers } from '../credits/ledger.ts';
import { runIdempotent } from '../credits/idempotency.ts';
import { invalidateFor } from '../dashboard/cache.ts';
import { writeLog } from '../logs/repo.ts';
import { findPackage } from '../packages/repo.ts';
import { intSetting } from '../settings/repo.ts';
import * as repo from './repo.ts';
import { DAY, addDuration, monthsRemaining, randomCredential, renewalBase } from './rules.ts';

const ORDER_FIELDS: Record<string, string> = {
  id: 'ln.id',
  username: 'ln.username',
  password: 'ln.password',
  created_at: 'ln.created_at',
  exp_date: 'ln.exp_date',
  master_username: 'o.username',
  reseller_notes: 'ln.reseller_notes',
  whatsapp: 'ln.whatsapp',
  max_connections: 'ln.max_connections',
  enabled: 'ln.enabled',
  is_trial: 'ln.is_trial',
  system: 'ln.system',
};
const DEFAULT_ORDER: Order = { column: 'ln.id', direction: 'desc' };
const now = () => Math.floor(Date.now() / 1000);

export interface CreateLineInput {
  username?: string;
  password?: string;
  package_id: number;
  max_connections?: number;
  whatsapp?: string;
  reseller_notes?: string;
  bouquet?: string[];
}

const trialNotAllowed = () => new AppError(409, 'TRIAL_NOT_ALLOWED', 'Not available for trial lines');

type ListQuery = repo.LineFilters & { page?: number; per?: number; order_by?: string; tz_offset?: number };

/** The list's filters as the repo takes them (date range and owner resolved), shared with the export. */
async function resolveFilters({ database }: Deps, actor: AuthUser, q: ListQuery, byId: boolean) {
  const db = database.db;
  let createdAt: [number, number] | undefined;
  if (q.created) {
    const range = repo.createdRange(q.created, q.tz_offset ?? 0);
    if (!range) throw validation('created', 'must be YYYY-MM-DD or YYYY-MM-DD,YYYY-MM-DD');
    createdAt = range;
  }
  let resellerId: number | undefined;
  if (q.reseller) {
    // The owner filter only resolves inside the caller's subtree; anything else matches nothing.
    const owner = await db.selectFrom('resellers').select('id').where((eb) => eb(eb.fn('lower', ['username']), '=', q.reseller!.toLowerCase())).executeTakeFirst();
    resellerId = owner?.id ?? -1;
  }
  const scanInOrder = database.dialect === 'sqlite' && (await repo.isLargeScope(db, actor));
  const selective = q.id !== undefined || !!q.username || resellerId !== undefined;
  const walkOrder = database.dialect === 'sqlite' && byId && !selective;
  return { createdAt, resellerId, scanInOrder, walkOrder };
}

export async function list(deps: Deps, actor: AuthUser, q: ListQuery) {
  const db = deps.database.db;
  const order = parseOrder(q.order_by, ORDER_FIELDS, DEFAULT_ORDER);
  const opts = await resolveFilters(deps, actor, q, order.column === 'ln.id');
  const unfiltered = [q.id, q.username, q.text_search, q.reseller, q.created, q.type_user, q.status].every((v) => v === undefined || v === '');
  return repo.pageLines(db, repo.filtered(db, actor, q, now(), opts), {
    page: q.page,
    per: q.per,
    order,
    total: unfiltered ? () => repo.countFromCounters(db, actor) : undefined,
  });
}

/** The list's rows for an export: every match in id order, streamed (same filters and scope as `list`). */
export async function exportRows(deps: Deps, actor: AuthUser, q: ListQuery) {
  const db = deps.database.db;
  const opts = await resolveFilters(deps, actor, q, true);
  return repo.iterateLines(db, actor, q, now(), opts);
}

export async function get({ database }: Deps, actor: AuthUser, id: number) {
  const row = await repo.findVisibleLine(database.db, actor, id);
  if (!row) throw notFound('User');
  return row;
}

/** Loads a line for a change; on PostgreSQL its row is locked first so concurrent changes queue. */
async function loadLine(deps: Deps, trx: Kysely<DB>, actor: AuthUser, id: number) {
  if (deps.database.dialect === 'postgres') await trx.selectFrom('lines').select('id').where('id', '=', id).forUpdate().execute();
  const row = await repo.findVisibleLine(trx, actor, id);
  if (!row) throw notFound('User');
  return row;
}

async function credentials(trx: Kysely<DB>, input: { username?: string; password?: string }) {
  let username = input.username?.trim();
  if (username) {
    if (await repo.usernameExists(trx, username)) throw new AppError(409, 'USERNAME_TAKEN', 'This username is already taken', 'username');
  } else {
    do username = randomCredential();
    while (await repo.usernameExists(trx, username));
  }
  return { username, password: input.password?.trim() || randomCredential() };
}

/** Charges a non-admin owner for a line operation inside the caller's transaction. */
async function charge(trx: Kysely<DB>, actor: AuthUser, amount: number, reason: string, lineId: number, key?: string) {
  if (actor.type === 'admin' || amount <= 0) return 0;
  await debit(trx, { resellerId: actor.id, amount, reason, actorId: actor.id, lineId, idempotencyKey: key });
  return amount;
}

export async function create(deps: Deps, actor: AuthUser, input: CreateLineInput, key?: string) {
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key, fingerprint: ['create-line', input] }, 201, async (trx) => {
    const pkg = await findPackage(trx, input.package_id);
    if (!pkg || pkg.is_trial === 1) throw validation('package_id', 'choose an existing non-trial package');
    const limit = await intSetting(trx, 'user_limit_screen');
    const screens = pkg.max_connections >= 2 ? pkg.max_connections : (input.max_connections ?? 1);
    if (pkg.max_connections < 2 && (screens < 1 || screens > Math.max(1, limit))) {
      throw validation('max_connections', `must be between 1 and ${Math.max(1, limit)}`);
    }
    const bouquet = input.bouquet ? await assertBouquetIds(trx, input.bouquet, 'bouquet') : pkg.bouquets;
    const { username, password } = await credentials(trx, input);
    const t = now();
    const { id } = await trx
      .insertInto('lines')
      .values({
        member_id: actor.id,
        username,
        password,
        exp_date: addDuration(t, pkg.official_duration, pkg.official_duration_in),
        created_at: t,
        enabled: 1,
        is_trial: 0,
        max_connections: screens,
        package_id: pkg.id,
        bouquet: JSON.stringify(bouquet),
        reseller_notes: input.reseller_notes?.trim() || null,
        whatsapp: input.whatsapp?.trim() || null,
        system: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cost = await charge(trx, actor, screens * pkg.official_credits, 'line_create', id, key);
    await writeLog(trx, { type_log: 'user', action: 'user_create', actor_id: actor.id, reseller_id: actor.id, target_user: username, value: pkg.package_name, value_int: cost });
    return (await repo.findVisibleLine(trx, actor, id))!;
  });
  await invalidateFor(deps.database.db, actor.id);
  return outcome.body;
}

export async function createTrial(deps: Deps, actor: AuthUser, input: Omit<CreateLineInput, 'max_connections' | 'bouquet'>) {
  const line = await withTx(deps.database, async (trx) => {
    const pkg = await findPackage(trx, input.package_id);
    if (pkg?.is_trial !== 1 || pkg.is_official !== 0) throw validation('package_id', 'choose an existing trial package');
    const t = now();
    if (actor.type !== 'admin') {
      await lockResellers(trx, deps.database.dialect, [actor.id]); // count-then-insert must not race
      const limit = await intSetting(trx, 'trial_limit_per_day');
      if ((await repo.trialsSince(trx, actor.id, t - DAY)) >= limit) {
        throw new AppError(409, 'TRIAL_LIMIT_REACHED', `Trial limit reached: ${limit} per day`);
      }
    }
    const { username, password } = await credentials(trx, input);
    const { id } = await trx
      .insertInto('lines')
      .values({
        member_id: actor.id,
        username,
        password,
        exp_date: addDuration(t, pkg.trial_duration, pkg.trial_duration_in),
        created_at: t,
        enabled: 1,
        is_trial: 1,
        max_connections: Math.max(1, pkg.max_connections),
        package_id: pkg.id,
        bouquet: JSON.stringify(pkg.bouquets),
        reseller_notes: input.reseller_notes?.trim() || null,
        whatsapp: input.whatsapp?.trim() || null,
        system: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeLog(trx, { type_log: 'user', action: 'trial_create', actor_id: actor.id, reseller_id: actor.id, target_user: username, value: pkg.package_name });
    return (await repo.findVisibleLine(trx, actor, id))!;
  });
  await invalidateFor(deps.database.db, actor.id);
  return line;
}

/** Runs `change` on one visible line in a transaction and returns the fresh row. */
async function mutate(
  deps: Deps,
  actor: AuthUser,
  id: number,
  change: (trx: Kysely<DB>, line: repo.LineRow) => Promise<void>,
  key?: string,
  fingerprint?: unknown,
) {
  let memberId: number | undefined;
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key, fingerprint: [id, fingerprint] }, 200, async (trx) => {
    const line = await loadLine(deps, trx, actor, id);
    memberId = line.member_id;
    await change(trx, line);
    return (await repo.findVisibleLine(trx, actor, id))!;
  });
  if (memberId !== undefined) await invalidateFor(deps.database.db, memberId);
  return outcome.body;
}

const log = (trx: Kysely<DB>, actor: AuthUser, line: repo.LineRow, action: string, value?: string | null, value_int?: number | null) =>
  writeLog(trx, { type_log: 'user', action, actor_id: actor.id, reseller_id: line.member_id, target_user: line.username, value: value ?? null, value_int: value_int ?? null });

export function update(deps: Deps, actor: AuthUser, id: number, input: { password?: string; whatsapp?: string; reseller_notes?: string; bouquet?: string[] }) {
  return mutate(deps, actor, id, async (trx, line) => {
    const changes: Record<string, string | null> = {};
    if (input.password !== undefined && input.password.trim() !== '') changes.password = input.password.trim();
    if (input.whatsapp !== undefined) changes.whatsapp = input.whatsapp.trim() || null;
    if (input.reseller_notes !== undefined) changes.reseller_notes = input.reseller_notes.trim() || null;
    if (input.bouquet !== undefined) changes.bouquet = JSON.stringify(await assertBouquetIds(trx, input.bouquet, 'bouquet'));
    if (Object.keys(changes).length > 0) await trx.updateTable('lines').set(changes).where('id', '=', line.id).execute();
    await log(trx, actor, line, 'user_update', Object.keys(changes).join(','));
  });
}

export async function remove(deps: Deps, actor: AuthUser, id: number) {
  await mutate(deps, actor, id, async (trx, line) => {
    await trx.updateTable('lines').set({ deleted_at: now() }).where('id', '=', line.id).execute();
    await log(trx, actor, line, 'user_delete');
  });
}

export function renew(deps: Deps, actor: AuthUser, id: number, body: { package_id?: number; months?: number }, key?: string) {
  return mutate(
    deps,
    actor,
    id,
    async (trx, line) => {
      const t = now();
      if (body.package_id === undefined) {
        // Flash renew: one month at max_connections credits.
        if (line.is_trial === 1) throw trialNotAllowed();
        const cost = await charge(trx, actor, line.max_connections, 'line_flash_renew', line.id, key);
        await trx.updateTable('lines').set({ exp_date: addDuration(renewalBase(line.exp_date, t), 1, 'months') }).where('id', '=', line.id).execute();
        await log(trx, actor, line, 'user_flash_renew', '1 month', cost);
        return;
      }
      const pkg = await findPackage(trx, body.package_id);
      if (!pkg || pkg.is_trial === 1) throw validation('package_id', 'choose an existing non-trial package');
      const screens = pkg.max_connections >= 2 ? pkg.max_connections : line.max_connections;
      const cost = await charge(trx, actor, screens * pkg.official_credits, 'line_renew', line.id, key);
      await trx
        .updateTable('lines')
        .set({
          exp_date: addDuration(renewalBase(line.exp_date, t), pkg.official_duration, pkg.official_duration_in),
          package_id: pkg.id,
          is_trial: 0, // a renewed trial becomes a paid line
          max_connections: screens,
          ...(pkg.id !== line.package_id ? { bouquet: JSON.stringify(pkg.bouquets) } : {}),
        })
        .where('id', '=', line.id)
        .execute();
      await log(trx, actor, line, 'user_renew', pkg.package_name, cost);
    },
    key,
    ['renew', body],
  );
}

export function extendDays(deps: Deps, actor: AuthUser, id: number, days: number) {
  if (!Number.isInteger(days) || days < 1 || days > 3) {
    throw new AppError(400, 'VALIDATION', 'Please enter the days correctly (between 1 and 3).', 'days');
  }
  return mutate(deps, actor, id, async (trx, line) => {
    if (line.is_trial === 1) throw trialNotAllowed();
    const t = now();
    if (line.last_extended_at !== null && line.last_extended_at > t - 30 * DAY) {
      throw new AppError(409, 'EXTEND_LIMIT_REACHED', 'extend limit reached');
    }
    await trx
      .updateTable('lines')
      .set({ exp_date: renewalBase(line.exp_date, t) + days * DAY, last_extended_at: t })
      .where('id', '=', line.id)
      .execute();
    await log(trx, actor, line, 'user_extend', `${days} days`, days);
  });
}

export function screens(deps: Deps, actor: AuthUser, id: number, amount: number, key?: string) {
  if (amount === 0) throw validation('amount', 'must not be 0');
  return mutate(
    deps,
    actor,
    id,
    async (trx, line) => {
      if (line.is_trial === 1) throw trialNotAllowed();
      const limit = Math.max(1, await intSetting(trx, 'user_limit_screen'));
      const next = line.max_connections + amount;
      if (next < 1 || next > limit) throw validation('amount', `screens must stay between 1 and ${limit}`);
      const cost = amount > 0 ? await charge(trx, actor, amount * monthsRemaining(line.exp_date, now()), 'line_screens', line.id, key) : 0;
      await trx.updateTable('lines').set({ max_connections: next }).where('id', '=', line.id).execute();
      await log(trx, actor, line, 'user_screens', `${line.max_connections}->${next}`, cost);
    },
    key,
    ['screens', amount],
  );
}

export function setEnabled(deps: Deps, actor: AuthUser, id: number, enabled: 0 | 1) {
  return mutate(deps, actor, id, async (trx, line) => {
    await trx.updateTable('lines').set({ enabled }).where('id', '=', line.id).execute();
    await log(trx, actor, line, enabled ? 'user_unblock' : 'user_block');
  });
}

export function changeSystem(deps: Deps, actor: AuthUser, id: number, system: number) {
  return mutate(deps, actor, id, async (trx, line) => {
    if (line.enabled !== 1) throw new AppError(409, 'LINE_BLOCKED', 'Unblock the user before changing its system');
    await trx.updateTable('lines').set({ system }).where('id', '=', line.id).execute();
    await log(trx, actor, line, 'user_change_system', String(system), system);
  });
}

export async function selectSearch({ database }: Deps, actor: AuthUser, search: string) {
  const rows = await repo.searchVisibleLines(database.db, actor, search);
  return { data: rows.map((r) => ({ label: r.username, value: String(r.id) })) };
}

/** Non-trial, enabled, still-valid lines by expiry: what to renew next. */
export async function expiring({ database }: Deps, actor: AuthUser, q: { order?: 'asc' | 'desc'; page?: number; per?: number }) {
  const scanInOrder = database.dialect === 'sqlite' && (await repo.isLargeScope(database.db, actor));
  const base = repo
    .visibleLines(database.db, actor, scanInOrder)
    .where('ln.is_trial', '=', 0)
    .where('ln.enabled', '=', 1)
    .where('ln.exp_date', '>', now());
  return repo.pageLines(database.db, base, { page: q.page, per: q.per, order: { column: 'ln.exp_date', direction: q.order ?? 'asc' } });
}
