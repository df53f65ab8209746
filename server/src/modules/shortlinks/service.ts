import { randomBytes } from 'node:crypto';
import { withTx } from '../../db/tx.ts';
import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import type { AuthUser } from '../auth/service.ts';
import { domainFor } from '../domains/service.ts';
import { findVisibleLine } from '../lines/repo.ts';
import { writeLog } from '../logs/repo.ts';
import { allSettings } from '../settings/repo.ts';

export const LINK_TYPES = ['mpgets', 'm3u8', 'hls', 'ssiptv'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

const withScheme = (domain: string) => (/^https?:\/\//i.test(domain) ? domain : `http://${domain}`).replace(/\/+$/, '');

/** The four Xtream-style playlist links of a line, on its owner's domain or the main domain. */
export async function originalLinks(db: Tx, line: { member_id: number; username: string; password: string }): Promise<Record<LinkType, string>> {
  const domain = withScheme((await domainFor(db, line.member_id)) ?? (await allSettings(db)).main_domain);
  const q = `username=${encodeURIComponent(line.username)}&password=${encodeURIComponent(line.password)}`;
  return {
    mpgets: `${domain}/get.php?${q}&type=m3u_plus&output=mpegts`,
    m3u8: `${domain}/get.php?${q}&type=m3u_plus&output=m3u8`,
    hls: `${domain}/get.php?${q}&type=m3u_plus&output=hls`,
    ssiptv: `${domain}/ssiptv/${encodeURIComponent(line.username)}/${encodeURIComponent(line.password)}/playlist.m3u`,
  };
}

export async function linksOf({ database }: Deps, actor: AuthUser, lineId: number) {
  const line = await findVisibleLine(database.db, actor, lineId);
  if (!line) throw notFound('User');
  return originalLinks(database.db, line);
}

/** Shortens one of the line's own links (never a URL from the browser: no open redirect). */
export async function shorten(deps: Deps, actor: AuthUser, lineId: number, type: LinkType, origin: string) {
  return withTx(deps.database, async (trx) => {
    const line = await findVisibleLine(trx, actor, lineId);
    if (!line) throw notFound('User');
    const target = (await originalLinks(trx, line))[type];
    const code = randomBytes(6).toString('base64url');
    await trx
      .insertInto('short_links')
      .values({ code, target, line_id: line.id, type, created_by: actor.id, hits: 0, created_at: Math.floor(Date.now() / 1000) })
      .execute();
    await writeLog(trx, { type_log: 'user', action: 'user_shorturl', actor_id: actor.id, reseller_id: line.member_id, target_user: line.username, value: type });
    return { url: `${(deps.config.publicUrl ?? origin).replace(/\/+$/, '')}/s/${code}`, original: target };
  });
}

/** Public redirect: counts the hit and returns the target, or undefined for an unknown code. */
export async function resolve({ database }: Deps, code: string): Promise<string | undefined> {
  if (!/^[A-Za-z0-9_-]{1,16}$/.test(code)) return undefined;
  const row = await database.db.selectFrom('short_links').select(['id', 'target']).where('code', '=', code).executeTakeFirst();
  if (!row) return undefined;
  await database.db.updateTable('short_links').set((eb) => ({ hits: eb('hits', '+', 1) })).where('id', '=', row.id).execute();
  return row.target;
}
