import { tableSearch } from '../../components/table/tableSearch';

/** Sortable fields of GET /api/admin/packages. */
export const PACKAGE_SORT_FIELDS = ['id', 'package_name', 'is_trial', 'is_official'] as const;

/** validateSearch of /packages (page, per, order_by; no filters yet). */
export const packagesSearch = tableSearch(PACKAGE_SORT_FIELDS);
