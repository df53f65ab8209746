import { randomBytes } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { nowSec } from '../../lib/clock.ts';
import { claimDueSlot, setSlotDue } from '../../repos/scheduler-leases-repo.ts';
import { backupNow, pruneBackups } from './service.ts';

// Scheduled backups across processes and hosts: the `backup` slot of scheduler_leases holds when
// the next backup is due. Every process ticks; the one that claims a due slot takes the backup
// (the claim lasts RUN_SECONDS, so a process that dies mid-backup leaves it to another), then sets
// the slot due BACKUP_EVERY_HOURS after the backup began. A failed backup is tried again after
// RETRY_SECONDS. The first start with backups on takes one at once.

export const SLOT = 'backup';
const RUN_SECONDS = 3_600;
const RETRY_SECONDS = 600;

export type BackupTick = { took: false } | { took: true; file: string; removed: string[] } | { took: true; error: Error };

/** One tick of `holder`: a backup if the slot is due and this holder claims it. */
export async function backupTick(deps: Deps, holder: string): Promise<BackupTick> {
  const { config, database } = deps;
  const began = nowSec();
  if (!(await claimDueSlot(database.db, SLOT, holder, began, RUN_SECONDS))) return { took: false };
  try {
    const file = await backupNow(deps);
    await setSlotDue(database.db, SLOT, holder, began + config.backupEveryHours * 3_600);
    return { took: true, file, removed: pruneBackups(config.backupDir, config.backupKeep) };
  } catch (err) {
    await setSlotDue(database.db, SLOT, holder, nowSec() + RETRY_SECONDS);
    return { took: true, error: err as Error };
  }
}

export interface BackupScheduler {
  stop(): Promise<void>;
}

/** Ticks every BACKUP_TICK_SECONDS while BACKUP_EVERY_HOURS is set; logs each backup and failure. */
export function startBackupScheduler(deps: Deps, log: { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void }): BackupScheduler | undefined {
  if (deps.config.backupEveryHours === 0) return undefined;
  const holder = randomBytes(8).toString('hex');
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const tick = () => {
    if (stopping) return;
    round = backupTick(deps, holder)
      .then((r) => {
        if (r.took && 'file' in r) log.info({ file: r.file, removed: r.removed }, 'backup written');
        if (r.took && 'error' in r) log.error({ err: r.error }, 'backup failed; trying again in 10 minutes');
      })
      .catch((err) => log.error({ err }, 'backup tick failed'))
      .finally(() => {
        if (!stopping) timer = setTimeout(tick, deps.config.backupTickSeconds * 1000);
      });
  };
  timer = setTimeout(tick, Math.min(deps.config.backupTickSeconds * 1000, 1000));
  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await round;
    },
  };
}
