import { enumParam, intParam, tableSearch, textParam } from '../../components/table/tableSearch';
import { resellerParam } from '../lines/filters';

/** Sortable fields of GET /api/p2p/users. */
export const P2P_SORT_FIELDS = ['id', 'name', 'username', 'email', 'password', 'created', 'expiracao', 'status', 'is_trial', 'master_username'] as const;

export const P2P_TYPE_VALUES = ['normal', 'trial'] as const;
export type P2pType = (typeof P2P_TYPE_VALUES)[number];

/** Status filter of GET /api/p2p/users: 1 active (and not expired), 0 disabled, -1 registered, 3 expired. */
export const P2P_STATUS_VALUES = [1, 0, -1, 3] as const;
export type P2pStatus = (typeof P2P_STATUS_VALUES)[number];

export interface P2pFilters {
  id?: number;
  username?: string;
  reseller?: string;
  status?: P2pStatus;
  type_user?: P2pType;
}

const MAX_ID = 2_147_483_647;

export function parseP2pFilters(raw: Record<string, unknown>): P2pFilters {
  const id = intParam(raw.id, 1);
  const status = raw.status === undefined || raw.status === '' ? undefined : Number(raw.status);
  return {
    id: id !== undefined && id <= MAX_ID ? id : undefined,
    username: textParam(raw.username, 50),
    reseller: resellerParam(raw.reseller),
    status: (P2P_STATUS_VALUES as readonly number[]).includes(status as number) ? (status as P2pStatus) : undefined,
    type_user: enumParam(raw.type_user, P2P_TYPE_VALUES),
  };
}

/** validateSearch of /p2p_users. */
export const p2pUsersSearch = tableSearch(P2P_SORT_FIELDS, parseP2pFilters);
