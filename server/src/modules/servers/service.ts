import { type Tx, withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError, validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { hashToken, newToken } from '../auth/service.ts';
import { writeLog } from '../logs/service.ts';
import { saveSettings, textSetting } from '../settings/service.ts';
import * as repo from './repo.ts';

// Streaming edges (docs/integrations.md, "Edges"): each has a key it sends as X-Edge-Key with every
// /gateway/auth question. The key is shown once, at registration; only its SHA-256 is kept.

export const list = async ({ database }: Deps) => ({ data: await repo.listServers(database.db) });

function publicUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw validation('url', 'must be an http(s) URL', 'NOT_URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) throw validation('url', 'must be an http(s) URL', 'NOT_URL');
  return url.href.replace(/\/+$/, '');
}

export async function create(deps: Deps, actor: AuthUser, input: { name: string; url: string }) {
  const url = publicUrl(input.url);
  const { token: key, tokenHash } = newToken();
  return withTx(deps.database, async (trx) => {
    const row = await repo.insertServer(trx, { name: input.name.trim(), url, key_hash: tokenHash, created_by: actor.id, created_at: nowSec() });
    await writeLog(trx, { type_log: 'admin', action: 'server_create', actor_id: actor.id, reseller_id: actor.id, value: `${row.name} ${url}`.slice(0, 500), value_int: row.id });
    return { ...row, key };
  });
}

export async function remove(deps: Deps, actor: AuthUser, id: number) {
  await withTx(deps.database, async (trx) => {
    if (!(await repo.deleteServer(trx, id))) throw appError('NOT_FOUND', { params: { what: 'Server' } });
    // the stream URLs no longer point at an edge that is gone: back to the links' address
    if ((await textSetting(trx, 'default_edge')) === String(id)) await saveSettings(trx, { default_edge: '' });
    await writeLog(trx, { type_log: 'admin', action: 'server_delete', actor_id: actor.id, reseller_id: actor.id, value_int: id });
  });
}

/** The edge a key belongs to (the gateway's first question), or undefined. */
export async function serverByKey({ database }: Deps, key: string | undefined) {
  if (!key || key.length > 200) return undefined;
  return repo.serverByKeyHash(database.db, hashToken(key));
}

/** A registered edge by id (the default_edge setting names one), or undefined. */
export const findServer = (db: Tx, id: number) => repo.serverById(db, id);

/** The public URL of the edge the default_edge setting names, or undefined (none set, or gone). */
export async function defaultEdgeUrl(db: Tx): Promise<string | undefined> {
  const id = Number(await textSetting(db, 'default_edge'));
  return Number.isInteger(id) && id > 0 ? (await repo.serverById(db, id))?.url : undefined;
}
