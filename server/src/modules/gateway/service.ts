import { isIP } from 'node:net';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { admit } from '../connections/service.ts';
import { authenticateLine, entitledStream, lineStatus } from '../player/service.ts';
import { serverByKey } from '../servers/service.ts';
import { segmentLink } from './segment-link.ts';
import { openPlayer } from './open-player.ts';
import { type StreamRequest, parseStreamUri } from './uri.ts';

export interface EdgeQuestion {
  /** X-Edge-Key: the registered edge's secret */
  key?: string;
  /** X-Original-URI: what the client asked the edge for */
  uri?: string;
  /** X-Real-IP: the client's address as the edge saw it */
  ip?: string;
  userAgent?: string;
}

/** `segmentLink`: for a live stream, the signed query its playlist's segment URLs get (segment-link.ts). */
export type Verdict = { allow: true; source: string; segmentLink?: string } | { allow: false; status: 401 | 403; reason: string };

const refuse = (reason: string): Verdict => ({ allow: false, status: 403, reason });

/**
 * GET /gateway/auth (docs/integrations.md, "Edges"): may this client get this URI from this edge? Yes
 * when the line exists, is active, its bouquets give the stream and the connection is admitted
 * (max_connections, not recently disconnected); every yes refreshes the connection's activity.
 */
export async function authorize(deps: Deps, q: EdgeQuestion): Promise<Verdict> {
  const target = parseStreamUri(q.uri);
  const ip = q.ip?.trim() ?? '';
  const userAgent = q.userAgent ?? '';
  if (target && isIP(ip) && q.key && q.key.length <= 200) {
    const open = await openPlayer(deps, q.key, target, ip, userAgent.slice(0, 300));
    if (open) return allowed(deps, q, target, open, ip, userAgent);
  }

  const server = await serverByKey(deps, q.key);
  if (!server) return { allow: false, status: 401, reason: 'unknown edge key' };
  if (!target) return refuse('not a stream URI');
  if (!isIP(ip)) return refuse('no client address (X-Real-IP)');

  let line: Awaited<ReturnType<typeof authenticateLine>>;
  try {
    line = await authenticateLine(deps, { username: target.username, password: target.password, ip });
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 429) return refuse('too many wrong passwords from this address');
    throw err;
  }
  if (!line) return refuse('wrong username or password');
  const status = lineStatus(line, nowSec());
  if (status !== 'Active') return refuse(`line ${status.toLowerCase()}`);
  const stream = await entitledStream(deps, line, target.streamId, target.kind);
  if (!stream) return refuse("stream not in the line's bouquets");

  const admission = await admit(deps, {
    lineId: line.id,
    maxConnections: line.max_connections,
    streamId: stream.id,
    ip,
    userAgent: userAgent.slice(0, 300),
    serverId: server.id,
  });
  if (admission === 'limit') return refuse('max_connections reached');
  if (admission === 'disconnected') return refuse('connection ended by a disconnect');
  return allowed(deps, q, target, stream, ip, userAgent);
}

/** The yes: the stream's source, and for a live stream the signed query of its segments. */
function allowed(deps: Deps, q: EdgeQuestion, target: StreamRequest, stream: { id: number; source_url: string }, ip: string, userAgent: string): Verdict {
  if (target.kind !== 'live') return { allow: true, source: stream.source_url };
  const expires = nowSec() + deps.config.edgeLinkSeconds;
  const link = segmentLink({ key: q.key ?? '', username: target.username, streamId: stream.id, ip, userAgent }, expires);
  return { allow: true, source: stream.source_url, segmentLink: link };
}
