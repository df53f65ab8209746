import type { Tx } from '../../db/tx.ts';
import { DEFAULT_SETTINGS } from './defaults.ts';

export async function allSettings(db: Tx): Promise<Record<string, string>> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
  return { ...DEFAULT_SETTINGS, ...Object.fromEntries(rows.map((r) => [r.key, r.value])) };
}

export async function intSetting(db: Tx, key: string): Promise<number> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  const n = Number(row?.value ?? DEFAULT_SETTINGS[key]);
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}
