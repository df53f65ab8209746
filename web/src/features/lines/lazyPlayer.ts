import { isApiError } from '../../api/errors';
import i18n from '../../i18n';
import type { Line } from '../../api/types';
import './texts';

// The Lazy Player rules the row menu and the dialog check before calling the server (which checks them again).

const MAC = /^[0-9A-F]{2}([:-]?)[0-9A-F]{2}(\1[0-9A-F]{2}){4}$/i;
const MONTH = 30 * 86_400;

/** The fixed message when a MAC is missing or malformed, else null. */
export function macError(raw: string): string | null {
  const mac = raw.trim();
  if (!mac) return i18n.t('lazyPlayer.macRequired');
  if (!MAC.test(mac)) return i18n.t('lazyPlayer.macInvalid');
  return null;
}

/** What the server will charge: remaining 30-day months x the monthly price, rounded up. */
export function lazyPlayerCost(expDate: number, nowSec: number, monthly: number): number {
  return Math.max(0, Math.ceil(((expDate - nowSec) / MONTH) * monthly - 1e-9));
}

/** Why a line cannot activate the Lazy Player (checked before the dialog opens), or null. */
export function lazyPlayerBlocker(line: Pick<Line, 'system' | 'username' | 'password' | 'exp_date'>): string | null {
  if (line.system !== 1) return i18n.t('lazyPlayer.errors.LAZY_PLAYER_WRONG_SYSTEM');
  if (!line.username || !line.password || !line.exp_date) return i18n.t('lazyPlayer.errors.LINE_INCOMPLETE');
  return null;
}

const CODES = ['LAZY_PLAYER_WRONG_SYSTEM', 'LINE_INCOMPLETE', 'LINE_EXPIRED', 'INSUFFICIENT_CREDITS', 'LAZY_PLAYER_REFUSED', 'LAZY_PLAYER_FAILED', 'NOT_CONFIGURED', 'IN_PROGRESS'];

/** The fixed Lazy Player messages. */
export function lazyPlayerErrorText(e: unknown): string {
  if (!isApiError(e)) return i18n.t('lazyPlayer.errors.LAZY_PLAYER_FAILED');
  if (e.status === 0) return i18n.t('lazyPlayer.errors.COMMUNICATION');
  if (CODES.includes(e.code)) return i18n.t(`lazyPlayer.errors.${e.code}`);
  if (e.code === 'MAC_REQUIRED') return i18n.t('lazyPlayer.macRequired');
  if (e.code === 'VALIDATION' && e.field === 'mac') return i18n.t('lazyPlayer.macInvalid');
  return e.message || i18n.t('lazyPlayer.errors.INSUFFICIENT_CREDITS');
}
