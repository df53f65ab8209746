import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryClient } from '../../api/queryClient';
import { complementsKeys } from '../../api/complements';
import { serverKeys } from '../servers/queryKeys';
import { settingsKeys } from './queryKeys';
import type { SettingsUpdate } from '../../api/types';

export function useAdminSettings() {
  return useQuery({ queryKey: settingsKeys.all(), queryFn: ({ signal }) => api.GET('/api/admin/settings', { signal }) });
}

/** The registered edges, for the default_edge choice (the same query as /servers). */
export function useEdgeServers() {
  return useQuery({ queryKey: serverKeys.list(), queryFn: ({ signal }) => api.GET('/api/admin/servers', { signal }).then((r) => r.data) });
}

/** Saves (the page shows the error); the sidebar links and every page's settings come from /datacomplements, so it is reloaded too. */
export function useSaveSettings() {
  return useMutation({
    mutationFn: (body: SettingsUpdate) => api.PUT('/api/admin/settings', { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.all(), saved);
      return queryClient.invalidateQueries({ queryKey: complementsKeys.all() });
    },
  });
}
