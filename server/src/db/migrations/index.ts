import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Dialect } from '../connection.ts';
import * as m001 from './001_foundation.ts';
import * as m002 from './002_seed.ts';
import * as m003 from './003_resellers_lines.ts';
import * as m004 from './004_short_links.ts';
import * as m005 from './005_dashboard.ts';
import * as m006 from './006_line_counters.ts';
import * as m007 from './007_dashboard_cache.ts';
import * as m008 from './008_lines_username_lower.ts';
import * as m009 from './009_login_throttle.ts';
import * as m010 from './010_two_factor.ts';
import * as m011 from './011_short_link_codes.ts';
import * as m012 from './012_main_domain_unset.ts';
import * as m013 from './013_download_tokens.ts';
import * as m014 from './014_p2p.ts';
import * as m015 from './015_catalogue.ts';
import * as m016 from './016_edges.ts';
import * as m017 from './017_vods_lazy_player.ts';
import * as m018 from './018_list_indexes.ts';
import * as m019 from './019_lines_top_reseller.ts';
import * as m020 from './020_migration_lookups.ts';
import * as m021 from './021_resellers_group_index.ts';
import * as m022 from './022_line_search.ts';
import * as m023 from './023_logs_top_reseller.ts';
import * as m024 from './024_line_search_statistics.ts';
import * as m025 from './025_line_search_deferral.ts';
import * as m026 from './026_line_search_triggers.ts';
import * as m027 from './027_address_bans.ts';
import * as m028 from './028_vod_title_keys.ts';
import * as m029 from './029_list_sort_indexes.ts';
import * as m030 from './030_log_user_index.ts';
import * as m031 from './031_catalogue_version.ts';
import * as m032 from './032_line_counts.ts';
import * as m033 from './033_line_creation_hours.ts';
import * as m034 from './034_api_keys.ts';
import * as m035 from './035_webhooks.ts';
import * as m036 from './036_line_expiry_marks.ts';
import * as m037 from './037_reminders.ts';
import * as m038 from './038_payments.ts';
import * as m039 from './039_reports.ts';
import * as m040 from './040_trial_pages.ts';
import * as m041 from './041_credit_sales.ts';
import * as m042 from './042_telegram.ts';

export interface MigrationContext {
  dialect: Dialect;
  /** auto-increment integer primary key type for this engine */
  id: 'integer' | 'serial';
  /** auto-increment key for tables that grow into the millions */
  bigId: 'integer' | 'bigserial';
}

type Step = { up(db: Kysely<any>, ctx: MigrationContext): Promise<void> };
const steps: Record<string, Step> = {
  '001_foundation': m001,
  '002_seed': m002,
  '003_resellers_lines': m003,
  '004_short_links': m004,
  '005_dashboard': m005,
  '006_line_counters': m006,
  '007_dashboard_cache': m007,
  '008_lines_username_lower': m008,
  '009_login_throttle': m009,
  '010_two_factor': m010,
  '011_short_link_codes': m011,
  '012_main_domain_unset': m012,
  '013_download_tokens': m013,
  '014_p2p': m014,
  '015_catalogue': m015,
  '016_edges': m016,
  '017_vods_lazy_player': m017,
  '018_list_indexes': m018,
  '019_lines_top_reseller': m019,
  '020_migration_lookups': m020,
  '021_resellers_group_index': m021,
  '022_line_search': m022,
  '023_logs_top_reseller': m023,
  '024_line_search_statistics': m024,
  '025_line_search_deferral': m025,
  '026_line_search_triggers': m026,
  '027_address_bans': m027,
  '028_vod_title_keys': m028,
  '029_list_sort_indexes': m029,
  '030_log_user_index': m030,
  '031_catalogue_version': m031,
  '032_line_counts': m032,
  '033_line_creation_hours': m033,
  '034_api_keys': m034,
  '035_webhooks': m035,
  '036_line_expiry_marks': m036,
  '037_reminders': m037,
  '038_payments': m038,
  '039_reports': m039,
  '040_trial_pages': m040,
  '041_credit_sales': m041,
  '042_telegram': m042,
};

class StaticProvider implements MigrationProvider {
  constructor(private ctx: MigrationContext) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(steps).map(([name, step]) => [name, { up: (db: Kysely<any>) => step.up(db, this.ctx) }]),
    );
  }
}

/** This build's last migration (the previous release's is in releases.ts). */
export const LATEST_MIGRATION = Object.keys(steps).at(-1) as string;

/**
 * Has the database every migration of this build? One query on kysely's table, so a start on an
 * up-to-date database skips the Migrator's tables, lock and transaction (start-up time), and
 * readiness (modules/ops) asks it on every probe. Every name is checked, not the latest alone (a
 * step added between others by a merge leaves the latest unchanged). Further migrations of a newer
 * release are fine: they only add, and an older host serves beside a newer one while a rolling
 * upgrade goes on (Kysely's Migrator would refuse them as "corrupted", so it is not asked then).
 * False before the first migration; throws when the database cannot be asked.
 */
export async function hasThisBuildsMigrations(db: Kysely<any>): Promise<boolean> {
  const names = Object.keys(steps);
  try {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from kysely_migration where name in (${sql.join(names)})`.execute(db);
    return Number(rows[0]?.n) === names.length;
  } catch (err) {
    if (isMissingTable(err)) return false; // first start: no kysely_migration table yet
    throw err;
  }
}

const isMissingTable = (err: unknown) => (err as { code?: string }).code === '42P01' || /no such table/.test(String((err as Error)?.message));

/** Migrates forward to this build's last migration, or to `upTo` (the upgrade test's previous release). */
export async function migrate(db: Kysely<any>, dialect: Dialect, upTo?: string): Promise<void> {
  if (!upTo && (await hasThisBuildsMigrations(db))) return;
  const ctx: MigrationContext =
    dialect === 'sqlite' ? { dialect, id: 'integer', bigId: 'integer' } : { dialect, id: 'serial', bigId: 'bigserial' };
  const migrator = new Migrator({ db, provider: new StaticProvider(ctx) });
  const { error, results } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
