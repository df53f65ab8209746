import { redirect } from '@tanstack/react-router';
import { toast } from '../api/notify';
import i18n from '../i18n';

/**
 * For a route guard: the page asked for is not open to the caller's role (a bookmark, a typed
 * URL). Back to the dashboard, with a notice saying why rather than a silent jump.
 */
export function roleRedirect() {
  toast({ id: 'role-redirect', color: 'yellow', message: i18n.t('errors.roleRedirect') });
  return redirect({ to: '/' });
}
