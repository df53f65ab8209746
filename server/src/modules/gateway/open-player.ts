import type { Deps } from '../../deps.ts';
import { nowSec } from '../../lib/clock.ts';
import { lineKeys } from '../auth/service.ts';
import { hashToken } from '../auth/service.ts';
import { keptOpen } from '../connections/service.ts';
import { bouquetIds, entitledStream, inAddressTurn, lineStatus, rightPassword } from '../player/service.ts';
import * as repo from './repo.ts';
import type { StreamRequest } from './uri.ts';

type Entitled = { id: number; source_url: string } | null;
/** Per database, streams the bouquets give, by catalogue version: what a line may watch changes only with it. */
const entitledByDatabase = new WeakMap<Deps['database'], Map<string, Entitled>>();
const ENTITLED_KEPT = 20_000;

/**
 * The edge's common question, a player already watching this stream from this address and user
 * agent, answered with one statement (repo.playerAtEdge) and the stream entitlement kept per
 * catalogue version. Anything else (an unknown edge or line, a wrong password, a blocked address,
 * a line not active, a new or ended connection) returns undefined, and the full decision runs.
 * It runs in the address's turn, as every password check does (player/access.ts).
 */
export function openPlayer(deps: Deps, key: string, target: StreamRequest, ip: string, userAgent: string) {
  return inAddressTurn(ip, async () => {
    const now = nowSec();
    const throttleKeys = lineKeys(deps.config, { username: target.username, ip }).map((k) => k.key);
    const row = await repo.playerAtEdge(deps.database.db, { keyHash: hashToken(key), username: target.username, streamId: target.streamId, ip, userAgent, throttleKeys, now });
    if (!row || row.server_id === null || row.blocked || row.activity_id === null || row.last_seen === null) return undefined;
    if (!rightPassword(row, target.password) || lineStatus(row, now) !== 'Active') return undefined;
    const stream = await entitledAt(deps, Number(row.catalogue_version), row, target);
    if (!stream || !keptOpen(deps, { activity_id: row.activity_id, last_seen: row.last_seen, ended_at: row.ended_at }, row.server_id)) return undefined;
    return stream;
  });
}

async function entitledAt(deps: Deps, version: number, line: repo.PlayerAtEdge, target: StreamRequest) {
  const bouquets = bouquetIds(line);
  const memo = `${version}|${target.kind}|${bouquets.join(',')}|${target.streamId}`;
  let entitled = entitledByDatabase.get(deps.database);
  if (!entitled) {
    entitled = new Map();
    entitledByDatabase.set(deps.database, entitled);
  }
  let stream = entitled.get(memo);
  if (stream === undefined) {
    const found = await entitledStream(deps, line, target.streamId, target.kind);
    stream = found ? { id: found.id, source_url: found.source_url } : null;
    if (entitled.size >= ENTITLED_KEPT) entitled.clear();
    entitled.set(memo, stream);
  }
  return stream;
}
