import type { Kysely } from 'kysely';

// Reference rows every installation needs; demo data lives in server/src/scripts/seed-demo.ts.

/**
 * The settings as this migration first seeded them, written out: an old migration never changes,
 * so it must not read today's defaults (modules/settings/defaults.ts). Keys added since are
 * seeded by their own migrations (014, 017) or read with their default when absent; main_domain's
 * localhost value is cleared by 012.
 */
const SEEDED_SETTINGS: Record<string, string> = {
  master_min_credit_create: '1',
  user_limit_screen: '1',
  main_domain: 'http://localhost:3000',
  trial_limit_per_day: '5',
  migration_package_adult: '33',
  migration_package_no_adult: '38',
};

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
    .values(Object.entries(SEEDED_SETTINGS).map(([key, value]) => ({ key, value })))
    .execute();
  await db
    .insertInto('news')
    .values([
      { title: 'Avisos', body: '', level: 1, status: 0 },
      { title: 'Links', body: '', level: 1, status: 0 },
    ])
    .execute();
}
