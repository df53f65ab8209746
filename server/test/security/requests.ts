import type { World } from './world.ts';
import { STRONG_PASSWORD } from './world.ts';
import type { Hints, Operation } from './openapi.ts';

// Names the tests give values to, whatever route they appear on: ids point at the record under
// attack, packages and bouquets at ones that exist, names are unique so creations do not collide.

export type IdKind = 'reseller' | 'line' | 'package' | 'bouquet' | 'news' | 'other';

/** What the `{id}` of a path names, from the segment before it (/api/users/{id} is a line). */
export function idKind(op: Operation): IdKind | undefined {
  const m = op.path.match(/\/([a-z_-]+)\/\{id\}/);
  if (!m) return undefined;
  const kinds: Record<string, IdKind> = { resellers: 'reseller', users: 'line', packages: 'package', bouquets: 'bouquet', news: 'news' };
  return kinds[m[1]] ?? 'other';
}

export interface Target {
  reseller: number;
  line: number;
  resellerName?: string;
  lineName?: string;
  /** where a "move everything to" field points (the attacker itself, or a valid recipient for admin) */
  recipient: number;
}

let counter = 0;
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

export function bodyHints(world: World, target: Target, op: Operation): Hints {
  const trial = /trial/.test(op.path);
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
  return (name, schema) => {
    const text = schema.type === 'string';
    if (name === 'id') return listOfLines ? target.line : target.reseller;
    if (['reseller', 'toreseller', 'reseller_id', 'member_id', 'owner'].includes(name)) return text ? target.resellerName : target.reseller;
    if (['user_id', 'line_id'].includes(name)) return target.line;
    if (['user', 'text_search', 'search'].includes(name)) return target.lineName;
    if (name === 'username') return listOfLines ? target.lineName : target.resellerName;
    return undefined;
  };
}

/** The `{id}` for a path of this kind. */
export function pathId(world: World, kind: IdKind, target: Target, method: string): number {
  switch (kind) {
    case 'line':
      return target.line;
    case 'package':
      return world.packageId;
    case 'bouquet':
      return method === 'DELETE' ? world.spareBouquetId : world.bouquetId;
    case 'news':
      return world.newsId;
    default:
      return target.reseller;
  }
}
