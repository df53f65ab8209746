import i18n from '../../i18n';
import { notifySuccess } from '../../api/notify';
import { confirmDialog } from '../../components/confirm';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';

/** Admin action on a reseller row: confirm, reset its 2FA (the server logs it and ends its sessions), say how it went. */
export async function confirmResetTwoFactor(row: { id: number; username: string }, reset: { mutateAsync: (id: number) => Promise<unknown> }): Promise<void> {
  const ok = await confirmDialog({
    title: i18n.t('twoFactor.reset.title'),
    message: i18n.t('twoFactor.reset.confirm', { username: row.username }),
    confirmLabel: i18n.t('twoFactor.reset.submit'),
    danger: true,
  });
  if (!ok) return;
  await reset.mutateAsync(row.id);
  notifySuccess(i18n.t('twoFactor.reset.done', { username: row.username }));
}

/** Admin: clears a reseller's 2FA (lost phone and recovery codes) and ends its sessions. */
export function useResetTwoFactor() {
  return useMutation({
    mutationFn: (resellerId: number) => api.POST('/api/resellers/{id}/2fa/reset', { params: { path: { id: resellerId } } }),
  });
}
