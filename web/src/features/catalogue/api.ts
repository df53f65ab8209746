import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { catalogueKeys } from '../../api/catalogue';
import { dashboardKeys } from '../dashboard/queryKeys';
import type { CatalogueImport } from '../../api/types';

/** A 20,000-entry playlist imports in a few seconds; a URL is fetched first. */
const IMPORT_TIMEOUT_MS = 120_000;



/** POST /admin/catalogue/import (silent: the import panel shows the error); refreshes the catalogue and the dashboard's latest content. */
export function useImportCatalogue() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CatalogueImport) => api.POST('/api/admin/catalogue/import', { body, silent: true, timeoutMs: IMPORT_TIMEOUT_MS }),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: catalogueKeys.all() }),
        qc.invalidateQueries({ queryKey: dashboardKeys.latestContent() }),
        qc.invalidateQueries({ queryKey: catalogueKeys.bouquets() }),
      ]),
  });
}
