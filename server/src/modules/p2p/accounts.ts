import { type TalliedChange, entriesOf, tally } from '../reports/service.ts';
import { type Tx, withTx } from '../../db/tx.ts';
import type { P2pAccount } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { runIdempotent, spend } from '../credits/service.ts';
import { addDuration, assertTrialAllowed, paidTerms, renewalBase, trialTerms, uniqueCredentials } from '../lines/service.ts';
import { writeLog } from '../logs/service.ts';
import { textSetting } from '../settings/service.ts';
import { kick, queueAccount } from './outbox.ts';
import * as repo from './repo.ts';
import { RENEW_CREDITS_PER_MONTH, assertP2pConfigured, domainOf, emailOf } from './rules.ts';

// Changes to P2P accounts. Each runs in one transaction with its delivery to the P2P server
// (outbox), its log row and, when it costs credits, the guarded debit, ledger row and
// Idempotency-Key record (the lines' ledger pattern).

const DEFAULT_DOMAIN = 'p2p.local';

export interface CreateInput {
  name: string;
  username?: string;
  password?: string;
  package_id: number;
  max_connections?: number;
  whatsapp?: string;
  notes?: string;
}

type TrialInput = Pick<CreateInput, 'name' | 'username' | 'password' | 'package_id'>;

/** The login domain: the `p2p_email_domain` setting (a broken value falls back to p2p.local). */
async function loginDomain(trx: Tx): Promise<string> {
  const domain = (await textSetting(trx, 'p2p_email_domain')).trim().toLowerCase();
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(domain) && domain.length <= 60 ? domain : DEFAULT_DOMAIN;
}

const log = (trx: Tx, actor: AuthUser, account: Pick<P2pAccount, 'member_id' | 'email'>, action: string, value?: string | null, value_int?: number | null) =>
  writeLog(trx, { type_log: 'p2p', action, actor_id: actor.id, reseller_id: account.member_id, target_user: account.email, value: value ?? null, value_int: value_int ?? null });

interface Terms {
  package_id: number;
  created_at: number;
  expires_at: number;
  is_trial: 0 | 1;
  max_connections: number;
}

/** Inserts the caller's new account with its credentials and queues it for the P2P server. */
async function insertNew(trx: Tx, actor: AuthUser, input: TrialInput & { whatsapp?: string; notes?: string }, terms: Terms) {
  const domain = await loginDomain(trx);
  const { username, password } = await uniqueCredentials(input, (u) => repo.loginTaken(trx, u, emailOf(u, domain)));
  const row = {
    member_id: actor.id,
    name: input.name.trim() || username,
    username,
    email: emailOf(username, domain),
    password,
    external_password: null,
    status: 1,
    whatsapp: input.whatsapp?.trim() || null,
    notes: input.notes?.trim() || null,
    ...terms,
  };
  const id = await repo.insertAccount(trx, row);
  await queueAccount(trx, { id, ...row }, 'put');
  return { id, ...row };
}

/** A paid account, priced like a line from an official package: screens x official_credits. */
export async function create(deps: Deps, actor: AuthUser, input: CreateInput, key?: string) {
  assertP2pConfigured(deps.config);
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key, fingerprint: ['create-p2p', input] }, 201, async (trx) => {
    const t = nowSec();
    const { pkg, screens, cost, expiresAt } = await paidTerms(trx, input.package_id, input.max_connections, t);
    const account = await insertNew(trx, actor, input, { package_id: pkg.id, created_at: t, expires_at: expiresAt, is_trial: 0, max_connections: screens });
    const charged = await spend(trx, actor, cost, 'p2p_create', { p2pAccountId: account.id }, key);
    await log(trx, actor, account, 'p2p_create', pkg.package_name, charged);
    await tallyAccount(deps, trx, actor, { owner: actor.id, after: state(account), netCredits: charged });
    return (await repo.findVisible(trx, actor, account.id))!;
  });
  kick();
  return outcome.body;
}

/** A free trial from a trial package, within the same daily limit as line trials. */
export async function createTrial(deps: Deps, actor: AuthUser, input: TrialInput) {
  assertP2pConfigured(deps.config);
  const account = await withTx(deps.database, async (trx) => {
    const t = nowSec();
    const { pkg, screens, expiresAt } = await trialTerms(trx, input.package_id, t);
    await assertTrialAllowed(trx, deps.database.dialect, actor, t, 'p2p_accounts');
    const row = await insertNew(trx, actor, input, { package_id: pkg.id, created_at: t, expires_at: expiresAt, is_trial: 1, max_connections: screens });
    await log(trx, actor, row, 'p2p_trial_create', pkg.package_name);
    await tallyAccount(deps, trx, actor, { owner: actor.id, after: state(row) });
    return (await repo.findVisible(trx, actor, row.id))!;
  });
  kick();
  return account;
}

/** Runs `change` on one account in the caller's reach (404 otherwise), locked, and answers the fresh row. */
async function mutate(deps: Deps, actor: AuthUser, id: number, change: (trx: Tx, row: P2pAccount) => Promise<void>, key?: string, fingerprint?: unknown) {
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key, fingerprint: ['p2p', id, fingerprint] }, 200, async (trx) => {
    await repo.lockAccount(trx, deps.database.dialect, id);
    if (!(await repo.findVisible(trx, actor, id))) throw appError('NOT_FOUND', { params: { what: 'P2P user' } });
    await change(trx, (await repo.findRow(trx, id))!);
    return (await repo.findVisible(trx, actor, id))!; // undefined once deleted
  });
  kick();
  return outcome.body;
}

/** Name, username (the login follows: the old one is removed from the P2P server) and password. */
export function update(deps: Deps, actor: AuthUser, id: number, input: { name?: string; username?: string; password?: string }) {
  return mutate(deps, actor, id, async (trx, row) => {
    const changes: repo.AccountChanges = {};
    const name = input.name?.trim();
    const username = input.username?.trim();
    const password = input.password?.trim();
    if (name && name !== row.name) changes.name = name;
    if (password && password !== row.password) changes.password = password;
    if (username && username !== row.username) {
      const email = emailOf(username, domainOf(row.email));
      if (await repo.loginTaken(trx, username, email, row.id)) throw appError('USERNAME_TAKEN');
      Object.assign(changes, { username, email });
    }
    if (Object.keys(changes).length === 0) return;
    await repo.updateAccount(trx, row.id, changes);
    await queueAccount(trx, { ...row, ...changes }, 'put', row.email);
    await log(trx, actor, row, 'p2p_update', Object.keys(changes).join(','));
  });
}

export async function remove(deps: Deps, actor: AuthUser, id: number) {
  await mutate(deps, actor, id, async (trx, row) => {
    await repo.updateAccount(trx, row.id, { deleted_at: nowSec() });
    await queueAccount(trx, row, 'delete');
    await log(trx, actor, row, 'p2p_delete');
    await tallyAccount(deps, trx, actor, { owner: row.member_id, before: state(row) });
  });
}

/** Block (0) or unblock (1). */
export function setStatus(deps: Deps, actor: AuthUser, id: number, status: 0 | 1) {
  return mutate(deps, actor, id, async (trx, row) => {
    if (row.status === status) return;
    await repo.updateAccount(trx, row.id, { status });
    await queueAccount(trx, { ...row, status }, 'put');
    await log(trx, actor, row, status === 1 ? 'p2p_unblock' : 'p2p_block');
  });
}

/**
 * 1..12 months at 1 credit each, from the later of now and the current expiry. A trial becomes a
 * paid account; a registered (-1) one becomes active; a blocked one stays blocked.
 */
export async function renew(deps: Deps, actor: AuthUser, id: number, months: number, key?: string) {
  assertP2pConfigured(deps.config);
  return mutate(
    deps,
    actor,
    id,
    async (trx, row) => {
      const cost = await spend(trx, actor, months * RENEW_CREDITS_PER_MONTH, 'p2p_renew', { p2pAccountId: row.id }, key);
      const changes = { expires_at: addDuration(renewalBase(row.expires_at, nowSec(), row.is_trial === 1), months, 'months'), is_trial: 0, status: row.status === -1 ? 1 : row.status };
      await repo.updateAccount(trx, row.id, changes);
      await queueAccount(trx, { ...row, ...changes }, 'put');
      await log(trx, actor, row, 'p2p_renew', `${months} months`, cost);
      await tallyAccount(deps, trx, actor, { owner: row.member_id, before: state(row), after: state({ ...row, ...changes }), renewed: true, netCredits: cost });
    },
    key,
    ['renew', months],
  );
}

const state = (a: Pick<P2pAccount, 'expires_at' | 'is_trial'>) => ({ expires: a.expires_at, trial: a.is_trial === 1 });

/** What a change to an account adds to the reports (reports/tally.ts), in its transaction. */
const tallyAccount = (deps: Deps, trx: Tx, actor: AuthUser, c: Omit<TalliedChange, 'payer' | 'now'>) =>
  tally(deps, trx, entriesOf({ ...c, payer: actor.id, now: nowSec() }));

/** Gives every account of `fromId` to `toId` inside the caller's transaction (a reseller's removal). */
export const handOverAccounts = (trx: Tx, fromId: number, toId: number) => repo.moveAccounts(trx, fromId, toId);
