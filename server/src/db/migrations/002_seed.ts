import type { Kysely } from 'kysely';
import { DEFAULT_SETTINGS } from '../../modules/settings/defaults.ts';

// Reference rows every installation needs; demo data lives in server/src/scripts/seed-demo.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('groups')
    .values([
      { group_name: 'Administrators', type: 'admin' },
      { group_name: 'Master resellers', type: 'master' },
      { group_name: 'Resellers', type: 'reseller' },
    ])
    .execute();
  await db
    .insertInto('settings')
    .values(Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value })))
    .execute();
  await db
    .insertInto('news')
    .values([
      { title: 'Avisos', body: '', level: 1, status: 0 },
      { title: 'Links', body: '', level: 1, status: 0 },
    ])
    .execute();
}
