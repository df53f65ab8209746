import { enumParam, intParam, textParam } from '../../components/table/tableSearch';

export const TYPE_USER_VALUES = ['normal', 'trial'] as const;
export type TypeUser = (typeof TYPE_USER_VALUES)[number];

/** Status filter of GET /api/users: 1 active, 4 not expired, 3 expired, 0 blocked. */
export const STATUS_VALUES = [1, 4, 3, 0] as const;
export type StatusFilter = (typeof STATUS_VALUES)[number];

/** Filters of /users, as held in the query string. */
export interface UserFilters {
  id?: number;
  username?: string;
  text_search?: string;
  /** Owner (reseller) username. */
  reseller?: string;
  /** 'YYYY-MM-DD' or 'YYYY-MM-DD,YYYY-MM-DD'. */
  created?: string;
  type_user?: TypeUser;
  status?: StatusFilter;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** 'YYYY-MM-DD' or an ordered 'YYYY-MM-DD,YYYY-MM-DD' range, else undefined. */
export function createdParam(v: unknown): string | undefined {
  const s = textParam(v, 30);
  if (!s) return undefined;
  const parts = s.split(',').map((p) => p.trim());
  if (parts.length > 2 || !parts.every((p) => DAY_RE.test(p) && !Number.isNaN(Date.parse(`${p}T00:00:00Z`)))) return undefined;
  if (parts.length === 2 && parts[0]! > parts[1]!) return undefined;
  if (parts.length === 2 && parts[0] === parts[1]) return parts[0];
  return parts.join(',');
}

export function statusParam(v: unknown): StatusFilter | undefined {
  const n = intParam(v, 0);
  return (STATUS_VALUES as readonly number[]).includes(n ?? -1) ? (n as StatusFilter) : undefined;
}

/** Reseller usernames are word characters only (the reseller search refuses anything else). */
export function resellerParam(v: unknown): string | undefined {
  const s = textParam(v, 50);
  return s && /^\w+$/.test(s) ? s : undefined;
}

const MAX_ID = 2_147_483_647;

export function parseUserFilters(raw: Record<string, unknown>): UserFilters {
  const id = intParam(raw.id, 1);
  return {
    id: id !== undefined && id <= MAX_ID ? id : undefined,
    username: textParam(raw.username, 50),
    text_search: textParam(raw.text_search, 100),
    reseller: resellerParam(raw.reseller),
    created: createdParam(raw.created),
    type_user: enumParam(raw.type_user, TYPE_USER_VALUES),
    status: statusParam(raw.status),
  };
}
