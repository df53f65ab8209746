import type { Deps } from '../../deps.ts';
import { nowSec } from '../../lib/clock.ts';
import * as bouquets from '../bouquets/service.ts';
import * as packages from '../packages/service.ts';
import { listGroups } from '../resellers/service.ts';
import { allSettings } from '../settings/service.ts';

/** Reference data every signed-in page needs; small tables only. */
export async function complements(deps: Deps) {
  const [groups, settings, packageRows, bouquetRows] = await Promise.all([listGroups(deps), allSettings(deps.database.db), packages.all(deps), bouquets.list(deps)]);
  return { groups, settings, packages: packageRows, bouquets: bouquetRows, server_time: nowSec(), public_url: deps.config.publicUrl ?? null, p2p_configured: Boolean(deps.config.p2pApiUrl) };
}
