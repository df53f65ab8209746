import { tableSearch } from '../../components/table/tableSearch';
import { parseUserFilters } from './filters';

/** Sortable fields of GET /api/users (an old link sorting by anything else opens unsorted). */
export const USER_SORT_FIELDS = ['id', 'username', 'created_at', 'exp_date', 'master_username'] as const;

/** validateSearch of /users: page, per, order_by and the filters (removing a filter drops the page). */
export const usersSearch = tableSearch(USER_SORT_FIELDS, parseUserFilters);
