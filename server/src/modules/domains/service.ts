import { randomBytes } from 'node:crypto';
import { type Tx, withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError, validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { writeLog } from '../logs/service.ts';
import { findVisibleReseller } from '../resellers/service.ts';
import { defaultEdgeUrl } from '../servers/service.ts';
import { allSettings } from '../settings/service.ts';
import * as repo from './repo.ts';

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** Accepts a bare host name or an http(s) URL; returns the normalised origin-like text. */
export function normaliseDomain(raw: string): string {
  const text = raw.trim();
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw validation('dns_reseller', 'must be a host name or an http(s) URL', 'NOT_URL');
    }
    if (!HOST.test(url.hostname) || url.username || url.password) throw validation('dns_reseller', 'must be a host name or an http(s) URL', 'NOT_URL');
    const origin = `${url.protocol}//${url.host}`; // a unicode host grows in punycode
    if (origin.length > 255) throw validation('dns_reseller', 'is too long', 'TOO_LONG', { max: 255 });
    return origin;
  }
  if (!HOST.test(text)) throw validation('dns_reseller', 'must be a host name or an http(s) URL', 'NOT_URL');
  return text.toLowerCase();
}

async function visibleOr404(deps: Deps, actor: AuthUser, id: number) {
  const row = await findVisibleReseller(deps.database.db, actor, id, true);
  if (!row) throw appError('NOT_FOUND', { params: { what: 'Reseller' } });
  return row;
}

export async function list(deps: Deps, actor: AuthUser, resellerId: number) {
  const owner = await visibleOr404(deps, actor, resellerId);
  const rows = await repo.listDomains(deps.database.db, resellerId);
  return { data: rows.map((r) => ({ ...r, username: owner.username, owner: owner.master_username })) };
}

/** Managing domains is reseller management: masters and admins, for resellers below them. */
export async function add(deps: Deps, actor: AuthUser, resellerId: number, dns: string) {
  const owner = actor.type === 'reseller' ? undefined : await findVisibleReseller(deps.database.db, actor, resellerId, false);
  if (!owner) throw appError('NOT_FOUND', { params: { what: 'Reseller' } });
  if (dns.trim() === '' || dns.trim().toUpperCase() === 'NULL') return clear(deps, actor, resellerId, owner);
  const dns_reseller = normaliseDomain(dns);
  return withTx(deps.database, async (trx) => {
    const row = await repo.insertDomain(trx, {
      reseller_id: resellerId,
      dns_reseller,
      token_id: randomBytes(16).toString('hex'),
      created_by: actor.id,
      created_at: nowSec(),
    });
    await writeLog(trx, { type_log: 'reseller', action: 'domain_add', actor_id: actor.id, reseller_id: actor.id, target_reseller_id: resellerId, value: dns_reseller });
    return { ...row, username: owner.username, owner: owner.master_username };
  });
}

/** 'NULL' or empty: the reseller goes back to the main_domain setting. */
async function clear(deps: Deps, actor: AuthUser, resellerId: number, owner: { username: string; master_username: string | null }) {
  return withTx(deps.database, async (trx) => {
    await repo.deleteDomains(trx, resellerId);
    await writeLog(trx, { type_log: 'reseller', action: 'domain_clear', actor_id: actor.id, reseller_id: actor.id, target_reseller_id: resellerId });
    return { id: null, dns_reseller: null, token_id: null, created_at: null, username: owner.username, owner: owner.master_username };
  });
}

const withScheme = (domain: string) => (/^https?:\/\//i.test(domain) ? domain : `http://${domain}`).replace(/\/+$/, '');

/**
 * Where a line's playlist and stream links point: its owner's newest custom domain, else the
 * main_domain setting, else `fallback` (the panel's own address: PUBLIC_URL or the request's origin).
 */
export async function playlistBase(db: Tx, ownerId: number, fallback: string): Promise<string> {
  return withScheme((await repo.newestDomain(db, ownerId)) || (await allSettings(db)).main_domain.trim() || fallback);
}

/**
 * Where the stream URLs inside a line's playlist and player API answers point: the registered edge
 * the default_edge setting names, else the same address as its links (playlistBase).
 */
export async function streamBase(db: Tx, ownerId: number, fallback: string): Promise<string> {
  return (await defaultEdgeUrl(db)) ?? playlistBase(db, ownerId, fallback);
}
