import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';
import i18n from '../i18n';

export interface ConfirmOptions {
  title?: ReactNode;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button (delete, block...). */
  danger?: boolean;
}

/**
 * Confirmation dialog (Mantine modals). Resolves true on confirm, false on cancel/close.
 * Usage: if (await confirmDialog({ message: t(...), danger: true })) await mutation.mutateAsync(v);
 */
export function confirmDialog(opts: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (v: boolean) => {
      if (!settled) {
        settled = true;
        resolve(v);
      }
    };
    modals.openConfirmModal({
      title: opts.title ?? i18n.t('confirm.title'),
      centered: true,
      children: typeof opts.message === 'string' ? <Text size="sm">{opts.message}</Text> : opts.message,
      labels: { confirm: opts.confirmLabel ?? i18n.t('confirm.yes'), cancel: opts.cancelLabel ?? i18n.t('confirm.no') },
      confirmProps: { color: opts.danger ? 'red' : undefined, 'data-testid': 'confirm-yes' } as Record<string, unknown>,
      cancelProps: { 'data-testid': 'confirm-no' } as Record<string, unknown>,
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
    });
  });
}

/** Asks before deleting something: a red "Delete" button. */
export function confirmDelete(title: string, message: string): Promise<boolean> {
  return confirmDialog({ title, message, confirmLabel: i18n.t('common.delete'), danger: true });
}
