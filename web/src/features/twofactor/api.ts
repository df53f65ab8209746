import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { twoFactorKeys } from './queryKeys';
import { reloadProfile } from '../../api/profile';

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorKeys.status(),
    queryFn: ({ signal }) => api.GET('/api/profile/2fa', { signal }),
  });
}

function useRefresh() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: twoFactorKeys.status() });
    void reloadProfile();
  };
}

/** A new secret, pending until confirmed with a code. */
export function useStartSetup() {
  return useMutation({ mutationFn: () => api.POST('/api/profile/2fa/setup') });
}

/** Confirms the first code; answers the recovery codes (shown once). Errors are shown by the form. */
export function useEnableTwoFactor() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (code: string) => api.POST('/api/profile/2fa/enable', { body: { code }, silent: true }),
    onSuccess: refresh,
  });
}

export function useDisableTwoFactor() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { password: string; code: string }) => api.POST('/api/profile/2fa/disable', { body, silent: true }),
    onSuccess: refresh,
  });
}

