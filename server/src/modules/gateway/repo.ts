import { sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';

export interface PlayerAtEdge {
  /** the edge asking (undefined: unknown key) */
  server_id: number | null;
  /** the catalogue's version, which the stream entitlement kept in memory is valid for */
  catalogue_version: number | string;
  /** an address or username key of the line's password throttle is blocked now */
  blocked: number | boolean;
  id: number;
  password: string;
  exp_date: number;
  enabled: number;
  max_connections: number;
  bouquet: string;
  system: number;
  deleted_at: number | null;
  /** this player's connection to this stream (null: none yet) */
  activity_id: number | null;
  last_seen: number | null;
  ended_at: number | null;
}

export interface EdgeAsk {
  keyHash: string;
  username: string;
  streamId: number;
  ip: string;
  userAgent: string;
  throttleKeys: string[];
  now: number;
}

/**
 * Everything the edge's common question needs, in one statement (one round trip, one reader-thread
 * hop on SQLite): the edge by its key, the line by its username, the password throttle, the
 * catalogue version and the player's connection. No row: no such line.
 */
export function playerAtEdge(db: Tx, q: EdgeAsk): Promise<PlayerAtEdge | undefined> {
  return db
    .selectFrom('lines as l')
    .leftJoin('line_activity as a', (join) =>
      join.onRef('a.line_id', '=', 'l.id').on('a.stream_id', '=', q.streamId).on('a.user_ip', '=', q.ip).on('a.user_agent', '=', q.userAgent),
    )
    .select((eb) => [
      eb.selectFrom('servers').select('id').where('key_hash', '=', q.keyHash).as('server_id'),
      eb.selectFrom('catalogue_version').select('version').where('id', '=', 1).as('catalogue_version'),
      eb.exists(eb.selectFrom('login_throttle').select(sql.lit(1).as('one')).where('key', 'in', q.throttleKeys).where('blocked_until', '>', q.now)).as('blocked'),
      'l.id',
      'l.password',
      'l.exp_date',
      'l.enabled',
      'l.max_connections',
      'l.bouquet',
      'l.system',
      'l.deleted_at',
      'a.activity_id',
      'a.last_seen',
      'a.ended_at',
    ])
    .where('l.username', '=', q.username)
    .executeTakeFirst() as Promise<PlayerAtEdge | undefined>;
}
