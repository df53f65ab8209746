import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import type { PageCursor } from '../../db/paginate.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { findVisibleReseller } from '../resellers/service.ts';
import * as repo from './repo.ts';

export type { LedgerRow } from './repo.ts';

/** The ledger is readable by its reseller and by everyone above it; anyone else gets 404. */
async function assertReadable({ database }: Deps, actor: AuthUser, resellerId: number) {
  if (!(await findVisibleReseller(database.db, actor, resellerId, true))) throw appError('NOT_FOUND', { params: { what: 'Reseller' } });
}

/** A reseller's credit history. Newest first. */
export async function history(deps: Deps, actor: AuthUser, resellerId: number, page = 1, per = 10, cursor?: PageCursor) {
  await assertReadable(deps, actor, resellerId);
  return repo.pageLedger(deps.database.db, resellerId, page, per, cursor);
}

/** The whole history for an export, oldest first, streamed. */
export async function exportRows(deps: Deps, actor: AuthUser, resellerId: number) {
  await assertReadable(deps, actor, resellerId);
  return repo.iterateLedger(deps.database.db, resellerId);
}

// The ledger's operations (ledger.ts) and idempotent requests (idempotency.ts): every module that
// moves credits or answers a repeated request goes through these.
export { burn, chargeable, currentBalance, lockResellers, mint, refund, spend, transfer } from './ledger.ts';
export { type Outcome, runIdempotent } from './idempotency.ts';
