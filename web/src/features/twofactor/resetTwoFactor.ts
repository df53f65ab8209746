import i18n from '../../i18n';
import { notifyError, notifySuccess } from '../../api/notify';
import { isApiError } from '../../api/errors';
import { confirmDialog } from '../../components/confirm';

/** Admin action on a reseller row: confirm, reset its 2FA (the server logs it and ends its sessions), say how it went. */
export async function confirmResetTwoFactor(row: { id: number; username: string }, reset: (id: number) => Promise<unknown>): Promise<void> {
  const ok = await confirmDialog({
    title: i18n.t('twoFactor.reset.title'),
    message: i18n.t('twoFactor.reset.confirm', { username: row.username }),
    confirmLabel: i18n.t('twoFactor.reset.submit'),
    danger: true,
  });
  if (!ok) return;
  try {
    await reset(row.id);
    notifySuccess(i18n.t('twoFactor.reset.done', { username: row.username }));
  } catch (e) {
    if (isApiError(e)) notifyError(e);
  }
}
