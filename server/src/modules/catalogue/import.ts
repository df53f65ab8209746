import { type Tx, withTx } from '../../db/tx.ts';
import type { CatalogueKind } from '../../db/types.ts';
import type { Database } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import { appError, AppError, validation } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { outboundAppError, safeFetch } from '../../lib/ssrf/index.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { writeLog } from '../logs/service.ts';
import { type Entry, EntryCounter, readPlaylist, toEntries } from './m3u.ts';
import * as repo from './repo.ts';
import { MAX_PLAYLIST_BYTES } from './schemas.ts';

/** Skip reasons answered in full; the total is always given. */
const SKIPS_SHOWN = 1000;
const FETCH_TIMEOUT_MS = 30_000;
/**
 * Entries stored per transaction. On SQLite every request shares one connection, so one
 * transaction for a whole playlist held it for seconds; a batch holds it for a few milliseconds
 * and the requests that wait meanwhile go between two batches.
 */
export const IMPORT_BATCH = 500;

export interface ImportInput {
  m3u?: string;
  url?: string;
  kind?: CatalogueKind;
}

/**
 * One import at a time per process (per database): the route takes the slot before the request's
 * body is read (routes.ts), so a second import is answered 409 at once instead of being read into
 * memory.
 */
const taken = new WeakSet<Database>();

/** Whether this process's import slot is taken (tests wait for it). */
export const importRunning = ({ database }: Deps) => taken.has(database);

/** Takes this process's import slot, or throws the 409; call the answer once to give it back. */
export function takeImportSlot({ database }: Deps): () => void {
  if (taken.has(database)) throw appError('IMPORT_RUNNING');
  taken.add(database);
  return () => taken.delete(database);
}

/** Counts the entries of a request body as it arrives (routes.ts): see EntryCounter. */
export const bodyEntryCounter = () => new EntryCounter('m3u');

/**
 * Imports an M3U playlist into the catalogue: #EXTINF group-title -> category (per kind), tvg-id ->
 * EPG id, tvg-logo -> icon. A stream already there (same source URL) is updated, never duplicated.
 * A text that is not a playlist, has more than MAX_ENTRIES entries or no usable entry imports
 * nothing. The entries are stored in batches of IMPORT_BATCH, each its own transaction: a failure
 * midway keeps the batches before it, and importing the same playlist again completes it (every
 * write is an upsert by source URL). One import at a time: per process (the slot, taken here
 * unless the route took it and passes `releaseSlot`; given back when the import ends) and, on
 * PostgreSQL, across the server's processes (a lock in the database); the others get a 409.
 */
export async function importCatalogue(deps: Deps, actor: AuthUser, input: ImportInput, releaseSlot = takeImportSlot(deps)) {
  try {
    if ((input.m3u === undefined) === (input.url === undefined)) throw validation('m3u', 'send either m3u (the playlist text) or url');
    const locked = await repo.whileImportLocked(deps.database, () => importLocked(deps, actor, input));
    if (!locked.ok) throw appError('IMPORT_RUNNING');
    return locked.value;
  } finally {
    releaseSlot();
  }
}

async function importLocked(deps: Deps, actor: AuthUser, input: ImportInput) {
  const field = input.m3u !== undefined ? 'm3u' : 'url';
  const text = input.m3u ?? (await fetchPlaylist(deps, input.url as string));
  const { entries, skipped } = await toEntries(await readPlaylist(text, field), input.kind);
  if (entries.length === 0) {
    const first = skipped[0];
    throw appError('M3U_INVALID', { field, params: { why: `no entry can be imported (line ${first.line}: ${first.reason})` } });
  }
  const source = field === 'url' ? new URL(input.url as string).host : 'file';
  const now = nowSec();
  const counts = { added: 0, updated: 0, unchanged: 0, categories_added: 0 };
  let stored = 0;
  const log = (value: string) =>
    withTx(deps.database, (trx) => writeLog(trx, { type_log: 'admin', action: 'catalogue_import', actor_id: actor.id, reseller_id: actor.id, value, value_int: stored }));
  try {
    for (let i = 0; i < entries.length; i += IMPORT_BATCH) {
      const batch = entries.slice(i, i + IMPORT_BATCH);
      const done = await withTx(deps.database, (trx) => store(trx, batch, now));
      counts.added += done.added;
      counts.updated += done.updated;
      counts.unchanged += done.unchanged;
      counts.categories_added += done.categories_added;
      stored += batch.length;
    }
  } catch (err) {
    // The batches before this one stay: say so where the admin and the operator look.
    const why = err instanceof Error ? err.message : String(err);
    const stopped = `stopped after ${stored} of ${entries.length} entries were stored (${why}); importing the same playlist again completes it`;
    await log(`${source}: ${stopped}`).catch(() => undefined);
    if (err instanceof AppError) throw err;
    // a 500 (its detail in the server's log), keeping the database's error code for the error handler
    throw Object.assign(new Error(`catalogue import ${stopped}`, { cause: err }), { code: (err as { code?: unknown }).code });
  }
  await log(
    `${source}: +${counts.added} ~${counts.updated} =${counts.unchanged} skipped ${skipped.length} (${Math.ceil(entries.length / IMPORT_BATCH)} batches of up to ${IMPORT_BATCH})`,
  );
  return { ...counts, skipped: skipped.slice(0, SKIPS_SHOWN), skipped_total: skipped.length };
}

async function fetchPlaylist({ config }: Deps, url: string): Promise<string> {
  // the download stops at the chunk that goes past MAX_ENTRIES entries
  const counter = new EntryCounter('url');
  try {
    const res = await safeFetch(url, {
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: MAX_PLAYLIST_BYTES,
      allow: config.outboundAllowNetworks,
      onChunk: (chunk) => counter.feed(chunk),
    });
    return res.body.toString('utf8');
  } catch (err) {
    throw outboundAppError(err, 'url');
  }
}

const categoryKey = (kind: CatalogueKind, name: string) => `${kind}\u0000${name}`;

/** One batch of entries, in one transaction. */
async function store(trx: Tx, entries: Entry[], now: number) {
  const wanted = new Map(entries.map((e) => [categoryKey(e.kind, e.group), { kind: e.kind, name: e.group }]));
  const categories_added = await repo.addCategories(trx, [...wanted.values()], now);
  const categoryOf = new Map<string, number>();
  for (const kind of ['live', 'movie', 'series'] as const) {
    const names = [...wanted.values()].filter((c) => c.kind === kind).map((c) => c.name);
    if (names.length === 0) continue;
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
