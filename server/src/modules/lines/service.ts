import type { Tx } from '../../db/tx.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import * as repo from './repo.ts';
import type { Dialect } from '../../db/connection.ts';
import { lockLine, moveLines } from './write-repo.ts';

// The lines module's public entry, one file per job: queries (lists, reads), create (paid lines,
// trials, migrated lines), renew (renewals and extra days), screens, edit (details, deletion,
// block, system). Every change to a line, here or in another module, is a LineChange performed by
// applyLineChange (line-change.ts), the one list of what a line change implies.
export { exportRows, expiring, get, list, type ListQuery, resolveFilters, selectSearch } from './queries.ts';
export { type CreateLineInput, type MigratedLineInput, assertTrialAllowed, create, createMigrated, createTrial, createTrialIn, paidTerms, trialTerms } from './create.ts';
export { addDuration, randomCredential, renewalBase, uniqueCredentials } from './rules.ts';
export { extendDays, renew, renewalByPackage } from './renew.ts';
export { type AppliedLineChange, type LineChange, applyLineChange, changeLine, loadLineForChange } from './line-change.ts';
export { screens } from './screens.ts';
export { changeSystem, remove, resyncP2p, setEnabled, undoCreation, update } from './edit.ts';
export type { LineRow } from './repo.ts';

/** A line the caller may reach, read inside the caller's transaction when it passes one (links). */
export const findVisibleLine = (db: Tx, actor: AuthUser, id: number) => repo.findVisibleLine(db, actor, id);

/** Gives every line of `fromId` to `toId` inside the caller's transaction (a reseller's removal). */
export const handOverLines = (trx: Tx, fromId: number, toId: number) => moveLines(trx, fromId, toId);

/** On PostgreSQL, locks a line's row inside the caller's transaction so changes to it queue (connection admission). */
export const lockLineRow = (trx: Tx, dialect: Dialect, id: number) => lockLine(trx, dialect, id);
