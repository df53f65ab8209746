import { createHash } from 'node:crypto';

export interface SegmentLinkFor {
  /** the edge's key: the secret nginx and the panel share */
  key: string;
  /** the line's username as nginx reads it from the path (decoded) */
  username: string;
  streamId: number;
  /** the client's address and user agent as nginx sees them ($remote_addr, $http_user_agent) */
  ip: string;
  userAgent: string;
}

/**
 * The query string the edge appends to the segment URLs of the playlist it serves (sub_filter),
 * `e=<expiry>&t=<token>`, which its `secure_link` checks on every segment without asking the panel
 * (docs/nginx-edge.conf). The token binds the expiry, the line, the stream, the client's address and
 * user agent to the edge's key, so a copied segment URL serves nobody else and nothing after
 * `expires`. MD5 because it is what Debian's nginx can check (secure_link_md5); the key comes last.
 */
export function segmentLink(s: SegmentLinkFor, expires: number): string {
  // nginx hashes the bytes it read: the decoded path (UTF-8 here) and the User-Agent as sent, which
  // Node hands over as latin1 (one character per byte), so it goes back to those bytes
  const token = createHash('md5')
    .update(`${expires} ${s.username}/${s.streamId} ${s.ip} `, 'utf8')
    .update(s.userAgent, 'latin1')
    .update(` ${s.key}`, 'utf8')
    .digest('base64url');
  return `e=${expires}&t=${token}`;
}
