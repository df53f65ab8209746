import { enumParam, intParam, tableSearch, textParam } from '../../components/table/tableSearch';
import { KINDS } from '../../api/catalogue';
import type { CatalogueKind } from '../../api/types';


/** Sortable fields of GET /api/admin/streams. */
export const STREAM_SORT_FIELDS = ['id', 'name', 'added', 'kind', 'category_id'] as const;

/** Filters of /catalogue, as held in the query string. */
export interface CatalogueFilters {
  search?: string;
  kind?: CatalogueKind;
  category_id?: number;
}

export function parseCatalogueFilters(raw: Record<string, unknown>): CatalogueFilters {
  const category = intParam(raw.category_id, 1);
  return {
    search: textParam(raw.search, 100),
    kind: enumParam(raw.kind, KINDS),
    category_id: category !== undefined && category <= 2_147_483_647 ? category : undefined,
  };
}

/** validateSearch of /catalogue: page, per, order_by, search, kind and category_id. */
export const catalogueSearch = tableSearch(STREAM_SORT_FIELDS, parseCatalogueFilters);
