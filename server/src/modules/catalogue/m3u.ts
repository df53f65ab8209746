import { Worker } from 'node:worker_threads';
import type { CatalogueKind } from '../../db/types.ts';
import { appError, validation } from '../../http/errors.ts';

/** One playlist entry as the parser read it (see m3u-worker.mjs). */
interface ParsedEntry {
  line: number;
  name: string;
  tvgName: string;
  tvgId: string;
  logo: string;
  group: string;
  url: string;
}

/** An entry ready for the catalogue. */
export interface Entry {
  line: number;
  name: string;
  kind: CatalogueKind;
  group: string;
  sourceUrl: string;
  icon: string | null;
  epgId: string | null;
  ext: string;
}

export interface Skip {
  line: number;
  name: string;
  reason: string;
}

export const MAX_ENTRIES = 100_000;
export const DEFAULT_CATEGORY = 'Uncategorized';
const PARSE_TIMEOUT_MS = 20_000;
const SOURCE_SCHEMES = new Set(['http:', 'https:', 'rtmp:', 'rtmps:', 'rtsp:', 'udp:', 'rtp:', 'srt:']);
const VIDEO_FILES = new Set(['mp4', 'mkv', 'avi', 'mov', 'm4v', 'wmv', 'flv', 'webm', 'mpg', 'mpeg', '3gp', 'ogv', 'divx', 'vob']);

export const tooManyEntries = (field: string) => appError('M3U_INVALID', { field, params: { why: `more than ${MAX_ENTRIES} entries` } });

/**
 * The parser reads an entry only from a line starting with this (after blanks), so the number of
 * its occurrences anywhere in the text is at least the number of entries: counted before anything
 * is parsed, a playlist with too many entries is refused at once instead of after the parse.
 */
const MARK = '#EXTINF:';
const MARK_BYTES = Buffer.from(MARK);

/** Throws the 400 once `text` holds more than MAX_ENTRIES entries (a linear indexOf scan). */
export function checkEntryCount(text: string, field: string): void {
  let n = 0;
  for (let at = text.indexOf(MARK); at !== -1; at = text.indexOf(MARK, at + MARK.length)) {
    if (++n > MAX_ENTRIES) throw tooManyEntries(field);
  }
}

/**
 * The same count on bytes as they arrive (a request body, a download), across chunk boundaries:
 * `feed` throws the 400 at the first chunk that goes past MAX_ENTRIES, so the rest is never read.
 */
export class EntryCounter {
  private n = 0;
  private tail: Buffer = Buffer.alloc(0);
  constructor(private readonly field: string) {}

  feed(chunk: Buffer): void {
    // an occurrence split between the last chunk and this one (the tail is too short to hold one)
    this.count(Buffer.concat([this.tail, chunk.subarray(0, MARK_BYTES.length - 1)]));
    this.count(chunk);
    const kept = MARK_BYTES.length - 1;
    this.tail = chunk.length >= kept ? Buffer.from(chunk.subarray(chunk.length - kept)) : Buffer.concat([this.tail, chunk]).subarray(-kept);
  }

  private count(bytes: Buffer): void {
    for (let at = bytes.indexOf(MARK_BYTES); at !== -1; at = bytes.indexOf(MARK_BYTES, at + MARK_BYTES.length)) {
      if (++this.n > MAX_ENTRIES) throw tooManyEntries(this.field);
    }
  }
}

/** Parses a playlist's text (off the main thread); a text that is not an M3U playlist is a 400. */
export async function readPlaylist(raw: string, field: string): Promise<{ parsed: ParsedEntry[]; orphans: number[]; offset: number }> {
  if (raw.includes('\u0000')) throw appError('M3U_INVALID', { field, params: { why: 'not a text playlist' } });
  const text = raw.replace(/^\uFEFF/, '');
  // Blank lines before #EXTM3U are dropped; `offset` keeps the reported line numbers the file's.
  let start = 0;
  let offset = 0;
  for (let nl = text.indexOf('\n'); nl !== -1 && text.slice(start, nl).trim() === ''; nl = text.indexOf('\n', start)) {
    start = nl + 1;
    offset++;
  }
  const body = text.slice(start);
  if (!body.startsWith('#EXTM3U')) throw appError('M3U_INVALID', { field, params: { why: 'an M3U playlist starts with #EXTM3U' } });
  checkEntryCount(body, field);
  const answer = await parseInWorker(body);
  if (!answer.ok) throw appError('M3U_INVALID', { field, params: { why: answer.message } });
  if (answer.entries.length + answer.orphans.length === 0) throw appError('M3U_INVALID', { field, params: { why: 'the playlist has no #EXTINF entries' } });
  if (answer.entries.length > MAX_ENTRIES) throw tooManyEntries(field);
  return { parsed: answer.entries, orphans: answer.orphans, offset };
}

type WorkerAnswer = { ok: true; entries: ParsedEntry[]; orphans: number[] } | { ok: false; message: string };
type WorkerMessage = { part: ParsedEntry[] } | { ok: true; orphans: number[] } | { ok: false; message: string };

type Failure = { ok: false; message: string };

/**
 * Runs one job of m3u-worker.mjs. `onMessage` gets each message and a `finish` for the answer;
 * the worker is ended once answered, after PARSE_TIMEOUT_MS, or when it runs out of its memory.
 */
/**
 * Bytes handed to a worker by transfer: copying tens of megabytes into `workerData` (a string or a
 * Buffer) took 0.1-0.2 s of the event loop at 17 MB. A Buffer that is a view into a bigger memory
 * (a pooled one) is copied once first, so nothing else is taken from this thread.
 */
function transferable(bytes: Buffer): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes;
  return new Uint8Array(bytes);
}

function inWorker<T>(
  bytes: { json: Buffer } | { m3u: Buffer },
  onMessage: (message: unknown, finish: (answer: T | Failure) => void, more: () => void) => void,
): Promise<T | Failure> {
  const [job, raw] = 'json' in bytes ? (['json', bytes.json] as const) : (['m3u', bytes.m3u] as const);
  const data = transferable(raw);
  return new Promise((resolve, reject) => {
    // its own memory limit: a hostile playlist runs the worker out of memory, never the server
    const worker = new Worker(new URL('./m3u-worker.mjs', import.meta.url), {
      workerData: { [job]: data },
      transferList: [data.buffer as ArrayBuffer],
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => resolve({ ok: false, message: `could not be read within ${PARSE_TIMEOUT_MS / 1000} s` })), PARSE_TIMEOUT_MS);
    // asks the worker for its next message, in a later turn of the event loop
    const more = () =>
      setImmediate(() => {
        if (!settled) worker.postMessage('next');
      });
    worker.on('message', (message: unknown) => onMessage(message, (answer) => settle(() => resolve(answer)), more));
    worker.once('error', (err) =>
      settle(() => ((err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? resolve({ ok: false, message: 'too large to read' }) : reject(err))),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`the playlist parser stopped (exit code ${code})`))));
  });
}

function parseInWorker(text: string): Promise<WorkerAnswer> {
  // The entries come in parts, one per turn of the event loop (see m3u-worker.mjs), so a large
  // playlist never holds it for one long copy.
  const entries: ParsedEntry[] = [];
  return inWorker<WorkerAnswer>({ m3u: Buffer.from(text, 'utf8') }, (raw, finish, more) => {
    const message = raw as WorkerMessage;
    if ('part' in message) {
      for (const e of message.part) entries.push(e);
      if (entries.length > MAX_ENTRIES) finish({ ok: false, message: `more than ${MAX_ENTRIES} entries` });
      else more();
    } else finish(message.ok ? { ...message, entries } : message);
  });
}

/**
 * A JSON request body parsed off the server's thread (see m3u-worker.mjs): for the import's big
 * bodies, whose decoding and parsing took ~0.3 s of the event loop at 17 MB. A body that is not
 * JSON (or nests too deep) is a 400 naming `body`, as the server's own JSON parser answers.
 */
export async function parseJsonOffThread(bytes: Buffer): Promise<unknown> {
  const answer = await inWorker<{ ok: true; value: unknown }>({ json: bytes }, (message, finish) => finish(message as { ok: true; value: unknown } | Failure));
  if (!answer.ok) throw validation('body', answer.message.replace(/^body: /, ''));
  return answer.value;
}

const extOf = (pathname: string) => /\.([a-z0-9]{1,10})$/i.exec(pathname)?.[1].toLowerCase() ?? '';

/** Xtream-style URLs say their kind (/live/, /movie/, /series/); otherwise a video file is a movie. */
export function kindOf(url: URL): CatalogueKind {
  const path = url.pathname.toLowerCase();
  if (path.includes('/series/')) return 'series';
  if (path.includes('/movie/')) return 'movie';
  if (path.includes('/live/')) return 'live';
  return VIDEO_FILES.has(extOf(path)) ? 'movie' : 'live';
}

function httpUrl(raw: string, max: number): string | null {
  try {
    const url = new URL(raw.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.href.length <= max ? url.href : null;
  } catch {
    return null;
  }
}

/** Entries checked between two turns given back to the event loop. */
const ENTRIES_PER_TURN = 2000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Checks and shapes the parsed entries; what cannot go in is skipped with its reason. Gives the
 * event loop back every ENTRIES_PER_TURN entries, so other requests go on during a big import.
 */
export async function toEntries(
  read: { parsed: ParsedEntry[]; orphans: number[]; offset: number },
  kind?: CatalogueKind,
): Promise<{ entries: Entry[]; skipped: Skip[] }> {
  const skipped: Skip[] = read.orphans.map((line) => ({ line: line + read.offset, name: '', reason: 'no stream URL after this #EXTINF' }));
  const entries: Entry[] = [];
  const seen = new Map<string, number>();
  for (const [index, p] of read.parsed.entries()) {
    if (index > 0 && index % ENTRIES_PER_TURN === 0) await nextTurn();
    const line = p.line + read.offset;
    const name = (p.name.trim() || p.tvgName.trim()).slice(0, 300);
    const skip = (reason: string) => skipped.push({ line, name, reason });
    if (!name) {
      skip('no name');
      continue;
    }
    let url: URL;
    try {
      url = new URL(p.url.trim());
    } catch {
      skip(p.url.trim() ? 'the stream URL is not a valid URL' : 'no stream URL');
      continue;
    }
    if (!SOURCE_SCHEMES.has(url.protocol)) {
      skip(`unsupported stream URL scheme ${url.protocol}`);
      continue;
    }
    if (url.href.length > 2048) {
      skip('the stream URL is longer than 2048 characters');
      continue;
    }
    const first = seen.get(url.href);
    if (first !== undefined) {
      skip(`same stream URL as line ${first}`);
      continue;
    }
    seen.set(url.href, line);
    const entryKind = kind ?? kindOf(url);
    const ext = extOf(url.pathname) || (entryKind === 'live' ? 'ts' : 'mp4');
    entries.push({
      line,
      name,
      kind: entryKind,
      group: p.group.trim().slice(0, 200) || DEFAULT_CATEGORY,
      sourceUrl: url.href,
      icon: httpUrl(p.logo, 1000),
      epgId: p.tvgId.trim().slice(0, 200) || null,
      ext,
    });
  }
  skipped.sort((a, b) => a.line - b.line);
  return { entries, skipped };
}
