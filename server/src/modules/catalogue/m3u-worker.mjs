// Two jobs off the server's thread, one per worker (workerData says which):
// - `{ json: bytes }`: a big request body of the import route (JSON text), parsed as the server's
//   own JSON parser would (the same depth limit, `__proto__` and `constructor.prototype` keys
//   refused), so decoding and parsing tens of megabytes never holds the server's event loop.
// - `{ m3u: text }`: one M3U playlist parsed with iptv-playlist-parser: the parser adds methods to
// String.prototype, which must never reach the server's own thread, and a long parse never holds
// the server's event loop. Answers the entries as plain data in parts of PART entries (each part is
// copied into the server's thread as one message, so no single copy holds its event loop for long),
// then the #EXTINF lines it dropped.
import { parentPort, workerData } from 'node:worker_threads';
import parser from 'iptv-playlist-parser';

const PART = 2000;
const MAX_JSON_DEPTH = 32;

/** The same scan as nestsDeeperThan (http/json-body.ts): a linear walk, strings skipped. */
function nestsDeeperThan(text, limit) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

function refusePrototypeKeys(key, value) {
  if (key === '__proto__' || (key === 'constructor' && value && typeof value === 'object' && Object.hasOwn(value, 'prototype'))) {
    throw new SyntaxError('Object contains forbidden prototype property');
  }
  return value;
}

function parseJson(bytes) {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.trim() === '') return { ok: false, message: "body: Body cannot be empty when content-type is set to 'application/json'" };
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return { ok: false, message: `body: nested deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { ok: true, value: JSON.parse(text, refusePrototypeKeys) };
  } catch (err) {
    return { ok: false, message: `body: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function parseM3u(text) {
  try {
    const { items } = parser.parse(text);
    const entries = items.map((i) => ({
      line: i.line,
      name: i.name,
      tvgName: i.tvg.name,
      tvgId: i.tvg.id,
      logo: i.tvg.logo,
      group: i.group.title,
      url: i.url ?? '',
    }));
    // An #EXTINF followed by another #EXTINF before any URL is overwritten by the parser: find those.
    const kept = new Set(entries.map((e) => e.line));
    const orphans = [];
    text.split(/\r?\n/).forEach((line, index) => {
      if (line.trim().startsWith('#EXTINF:') && !kept.has(index + 1)) orphans.push(index + 1);
    });
    for (let i = 0; i < entries.length; i += PART) parentPort.postMessage({ part: entries.slice(i, i + PART) });
    parentPort.postMessage({ ok: true, orphans });
  } catch (err) {
    parentPort.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
}

if (workerData.json) parentPort.postMessage(parseJson(workerData.json));
else parseM3u(workerData.m3u);
