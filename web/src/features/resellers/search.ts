import { tableSearch } from '../../components/table/tableSearch';

/** Sortable fields of GET /api/resellers. */
export const RESELLER_SORT_FIELDS = ['id', 'username', 'credits', 'master_username', 'last_login', 'group_name', 'status'] as const;

/** validateSearch of /resellers (filters to be added). */
export const resellersSearch = tableSearch(RESELLER_SORT_FIELDS);
