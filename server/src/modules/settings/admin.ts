import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { writeLog } from '../logs/service.ts';
import { findPackage } from '../packages/service.ts';
import { findServer } from '../servers/service.ts';
import { INT_RANGES } from './rules.ts';
import { allSettings, saveSettings } from './repo.ts';

/** Which outside systems this panel is configured for (server environment; read-only in the page). */
export function integrations({ config }: Deps) {
  return {
    public_url: config.publicUrl ?? null,
    tmdb: Boolean(config.tmdbApiKey),
    lazy_player: Boolean(config.lazyPlayerUrl),
    p2p: Boolean(config.p2pApiUrl),
    old_p2p_panel: Boolean(config.oldP2pUrl),
  };
}

export async function read(deps: Deps) {
  return { settings: await allSettings(deps.database.db), integrations: integrations(deps) };
}

/** Saves the settings sent, all or none (unknown keys are dropped by the schema); each changed key is logged. */
export async function update(deps: Deps, actor: AuthUser, values: Record<string, string>) {
  for (const [key, [min, max]] of Object.entries(INT_RANGES)) {
    const raw = values[key];
    if (raw !== undefined && (Number(raw) < min || Number(raw) > max)) throw validation(key, `must be an integer from ${min} to ${max}`, 'OUT_OF_RANGE', { min, max });
  }
  const normalised = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, k in INT_RANGES ? String(Number(v)) : v.trim()]));
  await withTx(deps.database, async (trx) => {
    for (const key of ['migration_package_adult', 'migration_package_no_adult']) {
      const id = normalised[key];
      if (id !== undefined && !(await findPackage(trx, Number(id)))) throw validation(key, 'choose an existing package', 'UNKNOWN_CHOICE');
    }
    const edge = normalised.default_edge;
    if (edge && !(await findServer(trx, Number(edge)))) throw validation('default_edge', 'choose a registered server', 'UNKNOWN_CHOICE');
    const before = await allSettings(trx);
    const changed = Object.fromEntries(Object.entries(normalised).filter(([k, v]) => before[k] !== v));
    await saveSettings(trx, changed);
    for (const [key, value] of Object.entries(changed)) {
      await writeLog(trx, { type_log: 'admin', action: 'settings_update', actor_id: actor.id, reseller_id: actor.id, value: `${key}=${value}`.slice(0, 250) });
    }
  });
  return read(deps);
}
