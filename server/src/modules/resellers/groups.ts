import type { Deps } from '../../deps.ts';
import * as repo from './groups-repo.ts';

/** The reseller groups (admin, master, reseller), for the reference data of the web app. */
export const listGroups = ({ database }: Deps) => repo.listGroups(database.db);
