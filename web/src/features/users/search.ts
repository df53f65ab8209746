import { tableSearch } from '../../components/table/tableSearch';

/** Sortable fields of GET /api/users. */
export const USER_SORT_FIELDS = ['id', 'username', 'password', 'created_at', 'exp_date', 'master_username', 'reseller_notes', 'whatsapp', 'max_connections', 'enabled', 'is_trial', 'system'] as const;

/** validateSearch of /users (filters to be added). */
export const usersSearch = tableSearch(USER_SORT_FIELDS);
