import type { World } from './world.ts';
import { STRONG_PASSWORD } from './world.ts';
import type { Hints, Operation } from './openapi.ts';

// Names the tests give values to, whatever route they appear on: ids point at the record under
// attack, packages and bouquets at ones that exist, names are unique so creations do not collide.

export type IdKind = 'reseller' | 'line' | 'p2p' | 'package' | 'bouquet' | 'news' | 'server' | 'apikey' | 'webhook' | 'other';

/** What the `{id}` of a path names, from the segment before it (/api/users/{id} is a line). */
export function idKind(op: Operation): IdKind | undefined {
  if (op.path.includes('{line_id}')) return 'line';
  const m = op.path.match(/\/([a-z_-]+)\/\{id\}/);
  if (!m) return undefined;
  if (op.path.startsWith('/api/p2p/')) return 'p2p';
  const kinds: Record<string, IdKind> = { resellers: 'reseller', users: 'line', packages: 'package', bouquets: 'bouquet', news: 'news', servers: 'server', 'api-keys': 'apikey', webhooks: 'webhook' };
  return kinds[m[1]] ?? 'other';
}

export interface Target {
  reseller: number;
  line: number;
  /** the P2P account of the line's owner */
  p2p: number;
  resellerName?: string;
  lineName?: string;
  p2pName?: string;
  /** where a "move everything to" field points (the attacker itself, or a valid recipient for admin) */
  recipient: number;
}

let counter = 0;
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A one-entry playlist for the catalogue import. */
const PROBE_M3U = '#EXTM3U\n#EXTINF:-1 tvg-id="probe" group-title="Probe",Probe channel\nhttp://probe.example.com/live/p/p/1.ts\n';

export function bodyHints(world: World, target: Target, op: Operation): Hints {
  const trial = /trial|test_users/.test(op.path);
  const importing = /\/catalogue\/import$/.test(op.path);
  return (name) => {
    switch (name) {
      case 'member_group_id':
        return world.groups.reseller;
      case 'package_id':
        return trial ? world.trialPackageId : world.packageId;
      case 'bouquets':
      case 'bouquet':
        return [String(world.bouquetId)];
      case 'user_id':
      case 'line_id':
        return target.line;
      case 'reseller_id':
      case 'owner':
      case 'owner_id':
        return target.reseller;
      case 'target_id':
        return target.recipient;
      case 'username':
        return unique('pr');
      case 'password':
        return STRONG_PASSWORD;
      case 'package_name':
      case 'bouquet_name':
      case 'title':
        return unique('probe ');
      case 'body':
        return 'probe text';
      case 'dns_reseller':
        return `${unique('probe')}.example.com`;
      case 'name':
        return unique('probe ');
      case 'm3u':
        return PROBE_M3U;
      case 'url':
        // the import takes m3u or url, not both
        return importing ? undefined : 'https://probe.example.com/';
      case 'value':
      case 'days':
      case 'amount':
        return 1;
      default:
        return undefined;
    }
  };
}

/** Query filters get the record under attack: its id where they take a number, its name where text. */
export function queryHints(op: Operation, target: Target): Hints {
  const listOfLines = /^\/api\/users(\/|$)/.test(op.path);
  const listOfP2p = op.path.startsWith('/api/p2p/');
  return (name, schema) => {
    const text = schema.type === 'string';
    if (name === 'id') return listOfP2p ? target.p2p : listOfLines ? target.line : target.reseller;
    if (name === 'username' && listOfP2p) return target.p2pName;
    if (['reseller', 'toreseller', 'reseller_id', 'member_id', 'owner'].includes(name)) return text ? target.resellerName : target.reseller;
    if (['user_id', 'line_id'].includes(name)) return target.line;
    if (['user', 'text_search', 'search'].includes(name)) return target.lineName;
    if (name === 'username') return listOfLines ? target.lineName : target.resellerName;
    return undefined;
  };
}

/** The path parameters aimed at `target`: its `{id}`, or a connection of its line. */
export function pathParams(world: World, op: Operation, target: Target): Record<string, string> {
  const kind = idKind(op);
  if (!kind) return {};
  if (op.path.includes('{line_id}')) return { line_id: String(target.line), activity_id: String(world.activities[target.line] ?? 1) };
  return { id: String(pathId(world, kind, target, op.method)) };
}

/** The `{id}` for a path of this kind. */
export function pathId(world: World, kind: IdKind, target: Target, method: string): number {
  switch (kind) {
    case 'line':
      return target.line;
    case 'p2p':
      return target.p2p;
    case 'package':
      return world.packageId;
    case 'bouquet':
      return method === 'DELETE' ? world.spareBouquetId : world.bouquetId;
    case 'news':
      return world.newsId;
    case 'server':
      return world.serverId;
    case 'apikey':
      return world.apiKeyId;
    case 'webhook':
      return world.webhookId;
    default:
      return target.reseller;
  }
}
