import { isApiError } from '../../api/errors';
import i18n from '../../i18n';
import { lineErrorText, showLineError } from '../users/errors';
import { notifications } from '@mantine/notifications';

/** Codes of the P2P and old-panel routes with their own text under p2p.errors. */
const P2P_CODES = ['OLD_LOGIN_FAILED', 'ALREADY_IMPORTED', 'CREDIT_LIMIT', 'NOT_ATTACHED', 'IMPORT_CONFLICTS'] as const;

/** Text of a failed P2P call: P2P codes first, then the line texts (undefined: the shared catalogue's). */
export function p2pErrorText(e: unknown): string | undefined {
  if (isApiError(e) && (P2P_CODES as readonly string[]).includes(e.code)) return i18n.t(`p2p.errors.${e.code}`);
  return lineErrorText(e);
}

/** Shows the error of a `silent` P2P call: P2P codes first, then the line and shared texts. */
export function showP2pError(e: unknown): void {
  const own = isApiError(e) && (P2P_CODES as readonly string[]).includes(e.code) ? p2pErrorText(e) : undefined;
  if (own) notifications.show({ id: `api-error-${(e as { code: string }).code}`, color: 'red', title: i18n.t('common.error'), message: own, autoClose: 5000 });
  else showLineError(e);
}
