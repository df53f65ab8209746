import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { nowSec } from '../../lib/clock.ts';
import * as repo from './repo.ts';

/**
 * Ends a line's open connections inside the caller's transaction, refused like a disconnect for
 * DISCONNECT_BAN_SECONDS: its player stops at the next segment (a blocked, deleted or P2P line).
 */
export async function endLineConnections({ config }: Deps, trx: Tx, lineId: number): Promise<void> {
  const now = nowSec();
  await repo.endAll(trx, lineId, now, now + config.disconnectBanSeconds);
}
