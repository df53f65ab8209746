import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { nowSec } from '../../lib/clock.ts';
import { emitLineEvent } from './emit.ts';
import { EXPIRED_LOOKBACK_SECONDS, EXPIRING_SECONDS } from './events.ts';
import * as repo from './repo.ts';

// line.expiring and line.expired: found by a scan of each subscribed owner's lines through its
// expiry index, a page at a time, and fired once per line and expiry: the mark
// (line_expiry_marks, unique) is written in the same transaction as the event, and only a line
// this transaction marked gets one, so two schedulers or a retried tick never send it twice. A
// renewal moves the expiry: the next cycle starts fresh. Blocked and deleted lines get nothing.

const PAGE = 200;

const KINDS = [
  { type: 'line.expiring', kind: 'webhook:line.expiring', range: (now: number) => [now, now + EXPIRING_SECONDS] },
  { type: 'line.expired', kind: 'webhook:line.expired', range: (now: number) => [now - EXPIRED_LOOKBACK_SECONDS, now] },
] as const;

/** One pass over every subscribed owner; returns how many events it wrote. */
export async function expiryTick(deps: Deps, now = nowSec()): Promise<number> {
  const db = deps.database.db;
  let written = 0;
  for (const { type, kind, range } of KINDS) {
    const [from, to] = range(now);
    for (const owner of await repo.ownersSubscribed(db, type)) {
      for (;;) {
        const lines = await repo.unmarkedExpiries(db, owner, from, to, kind, PAGE);
        if (lines.length === 0) break;
        written += await withTx(deps.database, async (trx) => {
          let n = 0;
          // a line renewed, blocked or deleted since the scan read it is not told about that expiry
          const current = new Map((await repo.expiryNow(trx, lines.map((l) => l.id))).map((l) => [l.id, l]));
          for (const line of lines) {
            const now_ = current.get(line.id);
            if (!now_ || Number(now_.exp_date) !== Number(line.exp_date) || now_.enabled !== 1 || now_.deleted_at !== null) {
              await repo.mark(trx, line.id, line.exp_date, kind, now); // skipped for good, so the scan moves on
              continue;
            }
            if (!(await repo.mark(trx, line.id, line.exp_date, kind, now))) continue;
            await emitLineEvent(trx, owner, type, line);
            n++;
          }
          return n;
        });
        if (lines.length < PAGE) break;
      }
    }
  }
  return written;
}
