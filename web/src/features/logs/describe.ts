import type { TFunction } from 'i18next';
import type { LogEntry } from '../../api/types';
import { formatNumber } from '../../lib/format';
import './texts';

/** Actions whose value_int is an amount of credits (spent, given, taken or moved). */
export const CREDIT_ACTIONS: ReadonlySet<string> = new Set([
  'user_create',
  'user_renew',
  'user_flash_renew',
  'user_screens',
  'add_credits',
  'remove_credits',
  'reseller_create',
  'reseller_to_master',
  'reseller_deactivate',
  'user_migrate',
  'user_lazy_player',
  'user_lazy_player_refund',
  'p2p_create',
  'p2p_renew',
  'p2p_import_credits',
]);

/** Actions whose value_int is the id of what was changed. */
const ID_ACTIONS: ReadonlySet<string> = new Set(['package_create', 'package_update', 'bouquet_create', 'bouquet_update', 'bouquet_delete', 'news_update']);

const SYSTEMS: Record<string, string> = { '1': 'HTTP', '2': 'P2P', '3': 'P2P BR' };

/** Translated action name; unknown actions show their code. */
export function actionLabel(t: TFunction, action: string): string {
  return t(`logs.actions.${action}`, { defaultValue: action });
}

export function typeLabel(t: TFunction, type: string): string {
  return t(`logs.types.${type}`, { defaultValue: type });
}

/** Human-readable value of an entry ('' when there is none). */
export function valueText(t: TFunction, e: LogEntry): string {
  const v = e.value ?? '';
  const id = e.value_int !== null && ID_ACTIONS.has(e.action) ? `#${e.value_int}` : '';
  switch (e.action) {
    case 'user_change_system':
      return SYSTEMS[v] ?? v;
    case 'user_flash_renew':
      return v === '1 month' ? t('logs.value.oneMonth') : v;
    case 'user_extend': {
      const days = /^(\d+) days?$/.exec(v);
      return days ? t('logs.value.days', { count: Number(days[1]) }) : v;
    }
    case 'user_screens':
      return v.replace('->', ' → ');
    case 'reseller_deactivate': {
      const to = /^transferall:(\d+)$/.exec(v);
      return to ? t('logs.value.transferTo', { id: to[1] }) : v;
    }
    case 'p2p_renew': {
      const months = /^(\d+) months?$/.exec(v);
      return months ? t('logs.value.months', { count: Number(months[1]) }) : v;
    }
    case 'p2p_import_clients':
      return e.value_int !== null ? t('logs.value.clients', { username: v, count: e.value_int }) : v;
    case 'catalogue_import':
      return importText(t, v);
    case 'user_update':
    case 'reseller_update':
      return v.split(',').filter(Boolean).join(', ');
    default:
      return [v, id && v ? `(${id})` : id].filter(Boolean).join(' ');
  }
}

const IMPORT_DONE = /^(.+?): \+(\d+) ~(\d+) =(\d+) skipped (\d+)/;
const IMPORT_STOPPED = /^(.+?): stopped after (\d+) of (\d+) entries were stored/;

/**
 * A catalogue import as the server logs it (`file: +20 ~0 =0 skipped 0 (1 batches of up to 500)`,
 * or `host: stopped after 1000 of 1200 entries were stored (why); …`) in words; other text as it is.
 */
function importText(t: TFunction, v: string): string {
  const n = (key: string, count: string) => t(`catalogue.import.summary.${key}`, { count: Number(count), n: formatNumber(Number(count)) });
  const from = (source: string) => (source === 'file' ? t('logs.value.import.file') : t('logs.value.import.url', { host: source }));
  const done = IMPORT_DONE.exec(v);
  if (done) {
    const [, source, added, updated, unchanged, skipped] = done;
    return `${from(source!)}: ${[n('added', added!), n('updated', updated!), n('unchanged', unchanged!), n('skipped', skipped!)].join(', ')}`;
  }
  const stopped = IMPORT_STOPPED.exec(v);
  if (stopped) {
    const [, source, stored, total] = stopped;
    return `${from(source!)}: ${t('logs.value.import.stopped', { count: Number(total), stored: formatNumber(Number(stored)), total: formatNumber(Number(total)) })}`;
  }
  return v;
}

/** Credits of an entry, or null when value_int is not an amount of credits. */
export function creditsOf(e: LogEntry): number | null {
  return e.value_int !== null && CREDIT_ACTIONS.has(e.action) ? e.value_int : null;
}

/** Who/what the action was done to: the target reseller, else the target line. */
export function targetOf(e: LogEntry): string {
  return e.toreseller ?? e.target_user ?? '';
}
