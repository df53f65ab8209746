import type { Deps } from '../../deps.ts';
import { withTx } from '../../db/tx.ts';
import { appError, validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { applyAwaitingSoon } from '../payments/service.ts';
import { invalidateFor } from '../dashboard/service.ts';
import { UpstreamError } from '../integrations/service.ts';
import { applyLineChange, findVisibleLine, type LineRow, loadLineForChange } from '../lines/service.ts';
import { intSetting } from '../settings/service.ts';
import { originalLinks, panelOrigin } from '../shortlinks/service.ts';
import { sendPlaylist } from './client.ts';
import * as repo from './repo.ts';

const MONTH = 30 * 86_400;
const MAC = /^[0-9A-F]{2}([:-]?)[0-9A-F]{2}(\1[0-9A-F]{2}){4}$/i;

/** `aa-bb-cc-dd-ee-ff`, `AABBCCDDEEFF` -> `AA:BB:CC:DD:EE:FF`; anything else is refused. */
export function normaliseMac(raw: string): string {
  const mac = raw.trim();
  if (!mac) throw appError('MAC_REQUIRED');
  if (!MAC.test(mac)) throw validation('mac', 'a MAC address has six pairs of hex digits, e.g. 00:1A:2B:3C:4D:5E');
  return (mac.replace(/[:-]/g, '').toUpperCase().match(/../g) as string[]).join(':');
}

/** The charge: the line's remaining time in 30-day months times the monthly price, rounded up. */
export function proportionalCharge(expDate: number, at: number, monthlyCredits: number): number {
  return Math.max(0, Math.ceil(((expDate - at) / MONTH) * monthlyCredits - 1e-9));
}

function assertActivatable(line: LineRow, at: number): void {
  if (line.system !== 1) throw appError('LAZY_PLAYER_WRONG_SYSTEM');
  if (!line.username || !line.password || !line.exp_date || line.enabled !== 1) {
    throw appError('LINE_INCOMPLETE');
  }
  if (line.exp_date <= at) throw appError('LINE_EXPIRED');
}


export interface ActivationResult {
  total_charged: number;
  mac: string;
}

/** A repeated request (same Idempotency-Key) gets the first one's outcome. */
function replay(previous: repo.Activation): ActivationResult {
  if (previous.status === 'active') return { total_charged: previous.charged, mac: previous.mac };
  if (previous.status === 'pending') throw appError('IN_PROGRESS');
  throw previous.error?.startsWith('status ') ? appError('LAZY_PLAYER_REFUSED', { params: { status: Number(previous.error.slice(7)) } }) : appError('LAZY_PLAYER_FAILED');
}

/**
 * Activates a line's Lazy Player (docs/integrations.md, "Lazy Player"): the charge is debited first, with its
 * ledger and log rows and the activation row, in one transaction; the service is called after it
 * commits; a refusal or failure refunds the charge with a compensating ledger row. So a failed
 * activation costs nothing and an activation is never free.
 */
export async function activate(deps: Deps, actor: AuthUser, lineId: number, rawMac: string, key: string | undefined, requestOrigin: string): Promise<ActivationResult> {
  // Someone else's line is a 404 whatever else is wrong with the request.
  if (!(await findVisibleLine(deps.database.db, actor, lineId))) throw appError('NOT_FOUND', { params: { what: 'User' } });
  const mac = normaliseMac(rawMac);
  if (!deps.config.lazyPlayerUrl) throw appError('NOT_CONFIGURED', { params: { what: 'The Lazy Player service (LAZY_PLAYER_URL)' } });
  if (key && key.length > 200) throw validation('Idempotency-Key', 'at most 200 characters', 'TOO_LONG', { max: 200 });
  const previous = key ? await repo.findByKey(deps.database.db, actor.id, key) : undefined;
  if (previous) return replay(previous);

  let started: { id: number; line: LineRow; charged: number; url: string };
  try {
    started = await withTx(deps.database, async (trx) => {
      const line = await loadLineForChange(deps, trx, actor, lineId);
      const at = nowSec();
      assertActivatable(line, at);
      const price = proportionalCharge(line.exp_date, at, await intSetting(trx, 'lazy_player_monthly_credits'));
      const { charged } = await applyLineChange(deps, trx, actor, { line, charge: { amount: price, reason: 'lazy_player', key }, log: { action: 'user_lazy_player', value: mac } });
      const id = await repo.insertActivation(trx, { line_id: line.id, reseller_id: actor.id, mac, charged, status: 'pending', idempotency_key: key ?? null, created_at: at });
      const url = (await originalLinks(trx, line, panelOrigin(deps.config, requestOrigin))).mpgets;
      return { id, line, charged, url };
    });
  } catch (err) {
    // A concurrent duplicate committed first (unique key): its outcome is ours.
    const winner = key ? await repo.findByKey(deps.database.db, actor.id, key) : undefined;
    if (winner) return replay(winner);
    throw err;
  }

  const { id, line, charged, url } = started;
  try {
    await sendPlaylist(deps.config, { name: line.username, mac, url });
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    const reason = err.status !== undefined ? `status ${err.status}` : err.message.slice(0, 280);
    await withTx(deps.database, async (trx) => {
      await repo.finishActivation(trx, id, 'failed', reason, nowSec());
      await applyLineChange(deps, trx, actor, { line, refund: { amount: charged, reason: 'lazy_player_refund' }, log: { action: 'user_lazy_player_refund', value: reason } });
    });
    if (charged > 0) applyAwaitingSoon(deps, actor.id); // PIX payments waiting for credits
    throw err.status !== undefined ? appError('LAZY_PLAYER_REFUSED', { params: { status: err.status } }) : appError('LAZY_PLAYER_FAILED');
  }
  await withTx(deps.database, async (trx) => {
    await repo.finishActivation(trx, id, 'active', null, nowSec());
    await invalidateFor(trx, line.member_id);
  });
  return { total_charged: charged, mac };
}
