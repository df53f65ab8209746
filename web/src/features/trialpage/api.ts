import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Body } from '../../api/types';
import { trialPageKeys } from './queryKeys';

export function useTrialPageSettings() {
  return useQuery({ queryKey: trialPageKeys.settings(), queryFn: ({ signal }) => api.GET('/api/trial-page/settings', { signal }) });
}

export function useSaveTrialPageSettings() {
  const qc = useQueryClient();
  return useMutation({
    // silent: the form shows the failure (showFormError: under its input, or toasted)
    mutationFn: (body: Body<'/api/trial-page/settings', 'put'>) => api.PUT('/api/trial-page/settings', { body, silent: true }),
    onSuccess: (data) => qc.setQueryData(trialPageKeys.settings(), data),
  });
}
