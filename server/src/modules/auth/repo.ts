import { type CompiledQuery, type Insertable, sql } from 'kysely';
import { readNow } from '../../db/connection.ts';
import type { Tx } from '../../db/tx.ts';
import type { SessionsTable } from '../../db/types.ts';
import { nowSec } from '../../lib/clock.ts';

export function findResellerByUsername(db: Tx, username: string) {
  return db
    .selectFrom('resellers')
    .innerJoin('groups', 'groups.group_id', 'resellers.member_group_id')
    .select(['resellers.id', 'resellers.username', 'resellers.password_hash', 'resellers.status', 'resellers.deleted_at', 'groups.type'])
    .where(sql`lower(resellers.username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export interface SessionRow {
  session_id: number;
  reseller_id: number;
  last_seen_at: number;
  expires_at: number;
  idle_seconds: number;
  revoked_at: number | null;
  status: number;
  deleted_at: number | null;
  username: string;
  credits: number;
  type: 'admin' | 'master' | 'reseller';
  /** 0/1 on SQLite, a boolean on PostgreSQL */
  two_factor_enabled: number | boolean;
  /** right under the root admin (lines carry its id as top_reseller_id); 0/1 or a boolean */
  top_level: number | boolean;
}

/** The session, its reseller and whether 2FA is on: every signed-in request's one statement. */
const sessionQuery = (db: Tx) =>
  db
    .selectFrom('sessions')
    .innerJoin('resellers', 'resellers.id', 'sessions.reseller_id')
    .innerJoin('groups', 'groups.group_id', 'resellers.member_group_id')
    .leftJoin('two_factor', (join) => join.onRef('two_factor.reseller_id', '=', 'sessions.reseller_id').on('two_factor.enabled_at', 'is not', null))
    .select([
      'sessions.id as session_id',
      'sessions.reseller_id',
      'sessions.last_seen_at',
      'sessions.expires_at',
      'sessions.idle_seconds',
      'sessions.revoked_at',
      'resellers.status',
      'resellers.deleted_at',
      'resellers.username',
      'resellers.credits',
      'groups.type',
      sql<number | boolean>`two_factor.reseller_id is not null`.as('two_factor_enabled'),
      sql<number | boolean>`(select max(rt.depth) from reseller_tree rt where rt.descendant_id = sessions.reseller_id) = 1`.as('top_level'),
    ]);

/**
 * The by-token statement, built and compiled once per database handle: building a Kysely query
 * costs more than running this indexed lookup (a CPU profile of `/api/profile`).
 */
const byTokenCompiled = new WeakMap<Tx, CompiledQuery>();

function byToken(db: Tx, tokenHash: string): CompiledQuery<SessionRow> {
  let compiled = byTokenCompiled.get(db);
  if (!compiled) {
    compiled = sessionQuery(db).where('sessions.token_hash', '=', tokenHash).compile();
    if (compiled.parameters.length !== 1) throw new Error('the session statement must take the token hash as its only parameter');
    byTokenCompiled.set(db, compiled);
  }
  return { ...compiled, parameters: [tokenHash] } as CompiledQuery<SessionRow>;
}

/** A session by its id (one-time download links carry the id). */
export function findSessionById(db: Tx, id: number): Promise<SessionRow | undefined> {
  return sessionQuery(db).where('sessions.id', '=', id).executeTakeFirst() as Promise<SessionRow | undefined>;
}

/**
 * A session by its token's hash: read at once when SQLite's connection is free (see readNow),
 * otherwise (PostgreSQL, or a transaction open) the usual way, as a promise.
 */
export function findSessionByToken(db: Tx, tokenHash: string): SessionRow | undefined | Promise<SessionRow | undefined> {
  const query = byToken(db, tokenHash);
  const rows = readNow(db, query);
  return rows ? rows[0] : db.executeQuery(query).then((result) => result.rows[0]);
}

export async function touchSession(db: Tx, id: number, now: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function revokeSession(db: Tx, id: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: nowSec() }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/**
 * Ends every way into the account: its sessions and any sign-in half-way through the second step
 * (a password change, a block or a 2FA reset must not leave a challenge to finish).
 */
export async function revokeAllSessions(db: Tx, resellerId: number, keepSessionId?: number): Promise<void> {
  await db.deleteFrom('two_factor_challenges').where('reseller_id', '=', resellerId).execute();
  // API keys are ways in too: a password reset, a block, a deactivation or a 2FA reset by someone
  // else revokes them for good (the owner keeping its session, after its own change, keeps them)
  if (keepSessionId === undefined) {
    await db.updateTable('api_keys').set({ revoked_at: nowSec() }).where('reseller_id', '=', resellerId).where('revoked_at', 'is', null).execute();
  }
  await db
    .updateTable('sessions')
    .set({ revoked_at: nowSec() })
    .where('reseller_id', '=', resellerId)
    .where('revoked_at', 'is', null)
    .$if(keepSessionId !== undefined, (q) => q.where('id', '!=', keepSessionId as number))
    .execute();
}

export async function insertSession(db: Tx, row: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

export async function markSignedIn(db: Tx, resellerId: number, at: number): Promise<void> {
  await db.updateTable('resellers').set({ last_login: at }).where('id', '=', resellerId).execute();
}

/** What a sign-in answers about the reseller. */
export const signedInUser = (db: Tx, resellerId: number) =>
  db.selectFrom('resellers').select(['id', 'username', 'credits']).where('id', '=', resellerId).executeTakeFirstOrThrow();
