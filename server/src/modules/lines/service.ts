import type { Tx } from '../../db/tx.ts';
import type { AuthUser } from '../auth/service.ts';
import * as repo from './repo.ts';
import { moveLines } from './write-repo.ts';

// The lines module's service, one file per job: queries (lists, reads), create (paid lines and
// trials), renew (renewals and extra days), screens, edit (details, deletion, block, system).
export { exportRows, expiring, get, list, selectSearch } from './queries.ts';
export { type CreateLineInput, create, createTrial } from './create.ts';
export { extendDays, renew } from './renew.ts';
export { screens } from './screens.ts';
export { changeSystem, remove, setEnabled, update } from './edit.ts';
export type { LineRow } from './repo.ts';

/** A line the caller may reach, read inside the caller's transaction when it passes one (links). */
export const findVisibleLine = (db: Tx, actor: AuthUser, id: number) => repo.findVisibleLine(db, actor, id);

/** Gives every line of `fromId` to `toId` inside the caller's transaction (a reseller's removal). */
export const handOverLines = (trx: Tx, fromId: number, toId: number) => moveLines(trx, fromId, toId);
