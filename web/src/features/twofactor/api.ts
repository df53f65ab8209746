import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { reloadProfile } from '../auth/profile';

export interface TwoFactorStatus {
  enabled: boolean;
  recovery_codes_left: number;
  /** REQUIRE_ADMIN_2FA applies to this account */
  required: boolean;
}

export interface TwoFactorSetup {
  /** base32, for typing into the app */
  secret: string;
  otpauth_url: string;
  /** data: URL of the QR code (made by the server) */
  qr: string;
}

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: queryKeys.twoFactor(),
    queryFn: ({ signal }) => api<TwoFactorStatus>('/profile/2fa', { signal }),
  });
}

function useRefresh() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: queryKeys.twoFactor() });
    void reloadProfile();
  };
}

/** A new secret, pending until confirmed with a code. */
export function useStartSetup() {
  return useMutation({ mutationFn: () => api<TwoFactorSetup>('/profile/2fa/setup', { method: 'POST' }) });
}

/** Confirms the first code; answers the recovery codes (shown once). Errors are shown by the form. */
export function useEnableTwoFactor() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (code: string) => api<{ recovery_codes: string[] }>('/profile/2fa/enable', { method: 'POST', body: { code }, silent: true }),
    onSuccess: refresh,
  });
}

export function useDisableTwoFactor() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { password: string; code: string }) => api<void>('/profile/2fa/disable', { method: 'POST', body, silent: true }),
    onSuccess: refresh,
  });
}

/** Admin: clears a reseller's 2FA (lost phone and recovery codes) and ends its sessions. */
export function useResetTwoFactor() {
  return useMutation({
    mutationFn: (resellerId: number) => api<{ reset: boolean }>(`/resellers/${resellerId}/2fa/reset`, { method: 'POST', silent: true }),
  });
}
