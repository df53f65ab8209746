import { confirmDelete, confirmDialog } from '../../components/confirm';
import i18n from '../../i18n';

/** Asks before blocking or unblocking a line or P2P account (`name`: what the customer signs in with). */
export function confirmBlockToggle(name: string, block: boolean): Promise<boolean> {
  return confirmDialog({
    title: i18n.t(block ? 'users.block.title' : 'users.unblock.title'),
    message: i18n.t(block ? 'users.block.confirm' : 'users.unblock.confirm', { username: name }),
    confirmLabel: i18n.t(block ? 'users.actions.block' : 'users.actions.unblock'),
    danger: block,
  });
}

/** Asks before removing a line or P2P account. */
export function confirmRemove(name: string): Promise<boolean> {
  return confirmDelete(i18n.t('users.remove.title'), i18n.t('users.remove.confirm', { username: name }));
}
