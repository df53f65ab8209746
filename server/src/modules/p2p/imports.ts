import { type TallyEntry, entriesOf, tally } from '../reports/service.ts';
import { type Tx, withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError, isUniqueViolation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { currentBalance, mint, runIdempotent } from '../credits/service.ts';
import { applyAwaitingSoon } from '../payments/service.ts';
import { randomCredential } from '../lines/service.ts';
import { writeLog } from '../logs/service.ts';
import * as repo from './import-repo.ts';
import * as oldPanel from './old-panel-client.ts';
import { kick, queueAccount } from './outbox.ts';
import * as accounts from './repo.ts';
import { assertP2pConfigured, localPartOf } from './rules.ts';

// The old P2P panel's import (docs/integrations.md, "Old P2P panel"). The old panel is called before any
// transaction opens (SQLite never holds its write lock across HTTP); what it answered is then
// applied in one transaction, all or nothing.

/** Checks the old panel's credentials and attaches that sign-in to the caller (for the client import). */
export async function attachLogin(deps: Deps, actor: AuthUser, input: { username: string; password: string }) {
  const session = await oldPanel.login(deps.config, input.username, input.password);
  if (!session) return { login: false, message: 'Usuário ou senha inválidos' };
  await withTx(deps.database, async (trx) => {
    await repo.saveOldLogin(trx, { reseller_id: actor.id, old_username: session.username, token: session.token, created_at: nowSec() });
    await writeLog(trx, { type_log: 'p2p', action: 'p2p_attach_login', actor_id: actor.id, reseller_id: actor.id, value: session.username });
  });
  return { login: true, message: 'Login efetuado com sucesso', username: session.username, credits: session.credits };
}

/** Moves the old account's balance into the caller's, once per old account (ledger reason `import`). */
export async function migrateReseller(deps: Deps, actor: AuthUser, input: { username: string; password: string }, key?: string) {
  const session = await oldPanel.login(deps.config, input.username, input.password);
  if (!session) throw appError('OLD_LOGIN_FAILED');
  const oldUsername = session.username.trim().toLowerCase();
  try {
    const outcome = await runIdempotent(deps.database, { actorId: actor.id, key, fingerprint: ['p2p-migrate-reseller', oldUsername] }, 200, async (trx) => {
      if (await repo.findImport(trx, oldUsername)) throw appError('ALREADY_IMPORTED');
      await repo.insertImport(trx, { reseller_id: actor.id, old_username: oldUsername, credits: session.credits, created_at: nowSec() });
      const balance =
        session.credits > 0
          ? await mint(trx, actor.id, session.credits, { reason: 'import', actorId: actor.id })
          : await currentBalance(trx, actor.id);
      await writeLog(trx, { type_log: 'credits', action: 'p2p_import_credits', actor_id: actor.id, reseller_id: actor.id, value: oldUsername, value_int: session.credits });
      return { old_username: oldUsername, credits_imported: session.credits, credits: balance };
    });
    if (session.credits > 0) applyAwaitingSoon(deps, actor.id); // PIX payments waiting for credits
    return outcome.body;
  } catch (err) {
    if (isUniqueViolation(err)) throw appError('ALREADY_IMPORTED'); // a concurrent import of the same account won
    throw err;
  }
}

type Reason = 'email_taken' | 'username_taken' | 'duplicate' | 'invalid';

/** What an old login must be to become an account: one @, no spaces, within the columns. */
const USABLE_EMAIL = /^[^@\s]{1,50}@[^@\s]+$/;

/** The old clients with `import: true|false`: false when the email or username is taken (or unusable). */
async function withConflicts(db: Tx, clients: oldPanel.OldClient[]) {
  const rows = clients.map((c) => {
    const email = c.email.trim();
    const username = email.includes('@') ? localPartOf(email) : '';
    return { ...c, email, username };
  });
  const taken = await accounts.takenAmong(
    db,
    rows.map((r) => r.email.toLowerCase()),
    rows.map((r) => r.username.toLowerCase()),
  );
  const seen = new Set<string>();
  return rows.map((r) => {
    let reason: Reason | null = null;
    const valid = USABLE_EMAIL.test(r.email) && r.email.length <= 120 && r.password.length <= 50;
    if (!valid) reason = 'invalid';
    else if (taken.emails.has(r.email.toLowerCase())) reason = 'email_taken';
    else if (taken.usernames.has(r.username.toLowerCase())) reason = 'username_taken';
    else if (seen.has(r.email.toLowerCase()) || seen.has(r.username.toLowerCase())) reason = 'duplicate';
    seen.add(r.email.toLowerCase());
    seen.add(r.username.toLowerCase());
    return { ...r, import: reason === null, reason };
  });
}

/** The clients of the attached old account, or null when none is attached (or its sign-in expired). */
async function oldClients(deps: Deps, actor: AuthUser) {
  const attached = await repo.findOldLogin(deps.database.db, actor.id);
  if (!attached) return null;
  const clients = await oldPanel.clients(deps.config, attached.token);
  if (!clients) {
    await withTx(deps.database, (trx) => repo.deleteOldLogin(trx, actor.id));
    return null;
  }
  return { oldUsername: attached.old_username, clients };
}

export async function importPreview(deps: Deps, actor: AuthUser) {
  const found = await oldClients(deps, actor);
  if (!found) return { attached: false, old_username: null, data: [], conflicts: 0 };
  const data = await withConflicts(deps.database.db, found.clients);
  return { attached: true, old_username: found.oldUsername, data, conflicts: data.filter((r) => !r.import).length };
}

/** Imports every old client as the caller's account, or none: refused while any conflict remains. */
export async function migrateClients(deps: Deps, actor: AuthUser) {
  assertP2pConfigured(deps.config); // the imported accounts would never reach the P2P server
  const found = await oldClients(deps, actor);
  if (!found) throw appError('NOT_ATTACHED');
  const imported = await withTx(deps.database, async (trx) => {
    const rows = await withConflicts(trx, found.clients);
    const conflicts = rows.filter((r) => !r.import).length;
    if (conflicts > 0) throw appError('IMPORT_CONFLICTS', { params: { conflicts } });
    const counted: TallyEntry[] = [];
    for (const r of rows) {
      // "0" (or nothing) means no password: the account gets a generated one; the old one is kept aside.
      const password = r.password !== '' && r.password !== '0' ? r.password : randomCredential();
      const account = {
        member_id: actor.id,
        name: (r.name.trim() || r.username).slice(0, 100),
        username: r.username,
        email: r.email,
        password,
        external_password: r.password || null,
        created_at: r.created,
        expires_at: r.expiracao,
        status: r.status,
        is_trial: 0,
        package_id: null,
        max_connections: 1,
      };
      const id = await accounts.insertAccount(trx, account);
      await queueAccount(trx, { id, ...account }, 'put');
      counted.push(...entriesOf({ owner: actor.id, payer: actor.id, now: nowSec(), after: { expires: account.expires_at, trial: false } }));
    }
    await tally(deps, trx, counted);
    await writeLog(trx, { type_log: 'p2p', action: 'p2p_import_clients', actor_id: actor.id, reseller_id: actor.id, value: found.oldUsername, value_int: rows.length });
    return rows.length;
  });
  kick();
  return { imported };
}
