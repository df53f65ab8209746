import { tableSearch } from '../../components/table/tableSearch';

/** Sortable fields of GET /api/logs. */
export const LOG_SORT_FIELDS = ['id', 'created_at', 'type_log', 'action', 'value_int'] as const;

/** validateSearch of /logs (filters to be added). */
export const logsSearch = tableSearch(LOG_SORT_FIELDS);
