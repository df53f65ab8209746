import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryClient } from '../../api/queryClient';
import { queryKeys } from '../../api/queryKeys';
import type { AdminSettings, SettingsUpdate } from '../../api/types';

export function useAdminSettings() {
  return useQuery({ queryKey: queryKeys.settings(), queryFn: ({ signal }) => api.GET('/api/admin/settings', { signal }) });
}

/** The registered edges, for the default_edge choice (the same query as /servers). */
export function useEdgeServers() {
  return useQuery({ queryKey: queryKeys.servers(), queryFn: ({ signal }) => api.GET('/api/admin/servers', { signal }).then((r) => r.data) });
}

/** Saves; the sidebar links and every page's settings come from /datacomplements, so it is reloaded too. */
export async function saveSettings(body: SettingsUpdate): Promise<AdminSettings> {
  const saved = await api.PUT('/api/admin/settings', { body, silent: true });
  queryClient.setQueryData(queryKeys.settings(), saved);
  await queryClient.invalidateQueries({ queryKey: queryKeys.complements() });
  return saved;
}
