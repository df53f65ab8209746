import { enumParam, intParam, tableSearch, textParam } from '../../components/table/tableSearch';

/** Sortable fields of GET /api/resellers. */
export const RESELLER_SORT_FIELDS = ['id', 'username', 'credits', 'master_username', 'last_login', 'group_name', 'status'] as const;

export const RESELLER_STATUSES = ['1', '0'] as const;
export type ResellerStatusFilter = (typeof RESELLER_STATUSES)[number];

/** Filters of the reseller list as they live in the query string. */
export interface ResellerFilters {
  /** Reseller id (exact). */
  id?: number;
  /** Part of the username. */
  username?: string;
  /** Username of the master (owner), e.g. /resellers?reseller=bob. */
  reseller?: string;
  /** Group id. */
  group?: number;
  /** '1' active, '0' blocked. */
  status?: ResellerStatusFilter;
}

/** validateSearch of /resellers: page, per, order_by and the filters id, username, reseller, group, status. */
const MAX_ID = 2_147_483_647;
const idParam = (v: unknown) => {
  const n = intParam(v, 1);
  return n !== undefined && n <= MAX_ID ? n : undefined;
};

export const resellersSearch = tableSearch<ResellerFilters>(RESELLER_SORT_FIELDS, (raw) => ({
  id: idParam(raw.id),
  username: textParam(raw.username, 50),
  reseller: textParam(raw.reseller, 50),
  group: idParam(raw.group),
  status: enumParam(raw.status, RESELLER_STATUSES),
}));
