import { tableSearch } from '../../components/table/tableSearch';
import { parseUserFilters, type UserFilters } from '../lines/filters';

/** Sortable fields of GET /api/users/connections. */
export const CONNECTION_SORT_FIELDS = ['activity_id', 'username', 'date_start', 'master_username', 'created_at'] as const;

/** Filters of /users/connections: the user list's, without id and text search. */
export type ConnectionFilters = Pick<UserFilters, 'username' | 'reseller' | 'created' | 'type_user' | 'status'>;

export function parseConnectionFilters(raw: Record<string, unknown>): ConnectionFilters {
  const { username, reseller, created, type_user, status } = parseUserFilters(raw);
  return { username, reseller, created, type_user, status };
}

/** validateSearch of /users/connections. */
export const connectionsSearch = tableSearch(CONNECTION_SORT_FIELDS, parseConnectionFilters);
