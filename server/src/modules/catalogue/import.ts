import { withTx } from '../../db/tx.ts';
import type { Kysely } from 'kysely';
import type { CatalogueKind, DB } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { AppError, validation } from '../../http/errors.ts';
import { outboundAppError, safeFetch } from '../../lib/ssrf/index.ts';
import type { AuthUser } from '../auth/service.ts';
import { writeLog } from '../logs/write.ts';
import { type Entry, readPlaylist, toEntries } from './m3u.ts';
import * as repo from './repo.ts';
import { MAX_PLAYLIST_BYTES } from './schemas.ts';

/** Skip reasons answered in full; the total is always given. */
const SKIPS_SHOWN = 1000;
const FETCH_TIMEOUT_MS = 30_000;

export interface ImportInput {
  m3u?: string;
  url?: string;
  kind?: CatalogueKind;
}

/**
 * Imports an M3U playlist into the catalogue in one transaction: #EXTINF group-title -> category
 * (per kind), tvg-id -> EPG id, tvg-logo -> icon. A stream already there (same source URL) is
 * updated, never duplicated. A text that is not a playlist, or has no usable entry, imports nothing.
 */
export async function importCatalogue(deps: Deps, actor: AuthUser, input: ImportInput) {
  if ((input.m3u === undefined) === (input.url === undefined)) throw validation('m3u', 'send either m3u (the playlist text) or url');
  const field = input.m3u !== undefined ? 'm3u' : 'url';
  const text = input.m3u ?? (await fetchPlaylist(deps, input.url as string));
  const { entries, skipped } = toEntries(await readPlaylist(text, field), input.kind);
  if (entries.length === 0) {
    const first = skipped[0];
    throw new AppError(400, 'M3U_INVALID', `${field}: no entry can be imported (line ${first.line}: ${first.reason}); nothing was imported`, field);
  }
  const counts = await withTx(deps.database, async (trx) => {
    const stored = await store(trx, entries, Math.floor(Date.now() / 1000));
    const value = `${field === 'url' ? new URL(input.url as string).host : 'file'}: +${stored.added} ~${stored.updated} =${stored.unchanged} skipped ${skipped.length}`;
    await writeLog(trx, { type_log: 'admin', action: 'catalogue_import', actor_id: actor.id, reseller_id: actor.id, value, value_int: entries.length });
    return stored;
  });
  return { ...counts, skipped: skipped.slice(0, SKIPS_SHOWN), skipped_total: skipped.length };
}

async function fetchPlaylist({ config }: Deps, url: string): Promise<string> {
  try {
    const res = await safeFetch(url, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_PLAYLIST_BYTES, allow: config.outboundAllowNetworks });
    return res.body.toString('utf8');
  } catch (err) {
    throw outboundAppError(err, 'url');
  }
}

const categoryKey = (kind: CatalogueKind, name: string) => `${kind}\u0000${name}`;

async function store(trx: Kysely<DB>, entries: Entry[], now: number) {
  const wanted = new Map(entries.map((e) => [categoryKey(e.kind, e.group), { kind: e.kind, name: e.group }]));
  const categories_added = await repo.addCategories(trx, [...wanted.values()], now);
  const categoryOf = new Map<string, number>();
  for (const kind of ['live', 'movie', 'series'] as const) {
    const names = [...wanted.values()].filter((c) => c.kind === kind).map((c) => c.name);
    for (const c of await repo.categoryIds(trx, kind, names)) categoryOf.set(categoryKey(kind, c.name), c.id);
  }

  const existing = new Map((await repo.streamsBySource(trx, entries.map((e) => e.sourceUrl))).map((s) => [s.source_url, s]));
  const writes: repo.StreamValues[] = [];
  let added = 0;
  let updated = 0;
  for (const e of entries) {
    const values = {
      source_url: e.sourceUrl,
      kind: e.kind,
      name: e.name,
      category_id: categoryOf.get(categoryKey(e.kind, e.group)) as number,
      icon: e.icon,
      epg_id: e.epgId,
      container_ext: e.ext,
      added: now,
    };
    const old = existing.get(e.sourceUrl);
    if (!old) added++;
    else if (changed(old, values)) updated++;
    else continue;
    writes.push(values);
  }
  await repo.upsertStreams(trx, writes);
  return { added, updated, unchanged: entries.length - added - updated, categories_added };
}

const FIELDS = ['kind', 'name', 'category_id', 'icon', 'epg_id', 'container_ext'] as const;
const changed = (old: repo.StoredStream, next: Omit<repo.StreamValues, 'added'>) => FIELDS.some((f) => old[f] !== next[f]);
