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

export async function textSetting(db: Tx, key: string): Promise<string> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? DEFAULT_SETTINGS[key] ?? '';
}

/** Writes these settings (insert or replace). */
export async function saveSettings(db: Tx, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await db.insertInto('settings').values({ key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
  }
}
