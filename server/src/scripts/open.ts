import { prepareDatabase } from '../bootstrap.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/connection.ts';
import type { Deps } from '../deps.ts';

/** Opens DATABASE_URL (default: the embedded SQLite file), migrates it and ensures the first admin. */
export async function openForScript(): Promise<Deps> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl, config);
  const admin = await prepareDatabase({ config, database });
  if (admin?.passwordFile) console.log(`First admin created: "${admin.username}", its generated password is in ${admin.passwordFile}`);
  return { config, database };
}
