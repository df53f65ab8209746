// Two jobs off the server's thread, one per worker (workerData says which):
// - `{ json: bytes }`: a big request body of the import route (JSON text), parsed as the server's
//   own JSON parser would (the same depth limit, `__proto__` and `constructor.prototype` keys
//   refused), so decoding and parsing tens of megabytes never holds the server's event loop.
// - `{ m3u: bytes }`: one M3U playlist (UTF-8) parsed with iptv-playlist-parser: the parser adds methods to
// String.prototype, which must never reach the server's own thread, and a long parse never holds
// the server's event loop. Answers the entries as plain data in parts of PART entries, each sent
// when the server's thread asks for the next (so no single copy holds its event loop for long),
// then the #EXTINF lines it dropped.
import { parentPort, workerData } from 'node:worker_threads';
import parser from 'iptv-playlist-parser';
import { MAX_JSON_DEPTH, TOO_DEEP_MESSAGE, nestsDeeperThan } from '../../http/json-depth.mjs';

const PART = 2000;

function refusePrototypeKeys(key, value) {
  if (key === '__proto__' || (key === 'constructor' && value && typeof value === 'object' && Object.hasOwn(value, 'prototype'))) {
    throw new SyntaxError('Object contains forbidden prototype property');
  }
  return value;
}

function parseJson(bytes) {
  const body = decode(bytes);
  if (body.trim() === '') return { ok: false, message: "body: Body cannot be empty when content-type is set to 'application/json'" };
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) return { ok: false, message: TOO_DEEP_MESSAGE };
  try {
    return { ok: true, value: JSON.parse(body, refusePrototypeKeys) };
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
    // One part at a time, the next when the server's thread asks for it: parts sent together are
    // all copied into it in one turn of its event loop.
    let next = 0;
    const send = () => {
      if (next >= entries.length) return parentPort.postMessage({ ok: true, orphans });
      parentPort.postMessage({ part: entries.slice(next, next + PART) });
      next += PART;
    };
    parentPort.on('message', send);
    send();
  } catch (err) {
    parentPort.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
}

// the bytes come by transfer (see m3u.ts)
const decode = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
if (workerData.json) parentPort.postMessage(parseJson(workerData.json));
else parseM3u(decode(workerData.m3u));
