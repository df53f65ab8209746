import { sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';

// What the operator's tools read (service.ts): the queues' backlogs.
// Read-only views over other modules' queue tables, each through the index its worker uses.

/** Rows matching `where` in `table`, counted up to `cap` + 1: a backlog's cost is bounded by the cap. */
async function cappedCount(db: Tx, table: string, where: ReturnType<typeof sql>, cap: number): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from (select 1 from ${sql.table(table)} where ${where} limit ${cap + 1}) as backlog`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

export interface Backlogs {
  webhookDeliveries: number;
  reminders: number;
  outbox: number;
  paymentsAwaitingCredits: number;
}

/** Each queue's waiting rows (up to `cap` + 1 each), read together. */
export async function backlogs(db: Tx, cap: number): Promise<Backlogs> {
  const [webhookDeliveries, reminders, outbox, paymentsAwaitingCredits] = await Promise.all([
    cappedCount(db, 'webhook_deliveries', sql`state = 'pending'`, cap), // webhook_deliveries_due
    cappedCount(db, 'reminder_messages', sql`status in ('retry', 'sending')`, cap), // reminder_messages_due
    cappedCount(db, 'outbox', sql`delivered_at is null`, cap), // outbox_queue (partial)
    cappedCount(db, 'payments', sql`status = 'paid_awaiting_credits'`, cap), // payments_status
  ]);
  return { webhookDeliveries, reminders, outbox, paymentsAwaitingCredits };
}
