import type { Config } from './config.ts';
import type { Database } from './db/connection.ts';

/** What every service needs; tests build their own. */
export interface Deps {
  config: Config;
  database: Database;
}
