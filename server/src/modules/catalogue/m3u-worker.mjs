// Parses one M3U playlist with iptv-playlist-parser, in a worker thread: the parser adds methods to
// String.prototype, which must never reach the server's own thread, and a long parse never holds
// the server's event loop. Answers the entries as plain data in parts of PART entries (each part is
// copied into the server's thread as one message, so no single copy holds its event loop for long),
// then the #EXTINF lines it dropped.
import { parentPort, workerData } from 'node:worker_threads';
import parser from 'iptv-playlist-parser';

const PART = 2000;
const text = workerData;
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
