import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { type Tx, withTx } from '../../db/tx.ts';
import { appError, validation } from '../../http/errors.ts';
import { localTime } from '../../lib/calendar.ts';
import { nowSec } from '../../lib/clock.ts';
import { processLogger } from '../../lib/logger.ts';
import { clientNetwork } from '../auth/service.ts';
import { lockResellers } from '../credits/service.ts';
import { type LineRow, createTrialIn, trialTerms, undoCreation } from '../lines/service.ts';
import { findPackage } from '../packages/service.ts';
import { renewalLink, sendWhatsAppOf, whatsappGatewayReady } from '../reminders/service.ts';
import { originalLinks, panelOrigin } from '../shortlinks/service.ts';
import { tellSale } from '../telegram/service.ts';
import { brazilianMobile } from './phone.ts';
import * as repo from './repo.ts';

// Self-service trials (docs/trials.md): an account's public trial page and the trials asked for
// on it. A trial is created in one transaction (the lines module's trial creation: log, event,
// reports), its message is sent outside any transaction, and when the message cannot go out a
// second transaction removes the line and refunds it (lines' undoCreation): nothing stays.

const DAY = 86_400;
/** one trial per number per account in this long */
export const NUMBER_WINDOW = 30 * DAY;
/** trials per client address in a rolling day, whichever the account */
export const PER_IP = 3;
export const DEFAULT_PER_DAY = 10;

export interface SettingsInput {
  enabled?: boolean;
  slug?: string | null;
  package_id?: number | null;
  per_day?: number;
  message?: string | null;
}

const publicLink = (deps: Deps, origin: string, slug: string | null) => (slug ? `${panelOrigin(deps.config, origin)}/teste/${slug}` : null);

export async function getSettings(deps: Deps, user: AuthUser, origin: string) {
  const [page, ready] = await Promise.all([repo.pageOf(deps.database.db, user.id), whatsappGatewayReady(deps, user.id)]);
  return {
    enabled: page?.enabled === 1,
    slug: page?.slug ?? null,
    package_id: page?.package_id ?? null,
    per_day: page?.per_day ?? DEFAULT_PER_DAY,
    message: page?.message ?? null,
    public_url: publicLink(deps, origin, page?.slug ?? null),
    whatsapp_ready: ready,
  };
}

export async function putSettings(deps: Deps, user: AuthUser, input: SettingsInput, origin: string) {
  const ready = await whatsappGatewayReady(deps, user.id);
  await withTx(deps.database, async (trx) => {
    const own = await repo.pageOf(trx, user.id);
    const slug = input.slug === undefined ? (own?.slug ?? null) : input.slug;
    if (slug !== null && slug !== own?.slug) {
      const taken = await repo.pageBySlug(trx, slug);
      if (taken && taken.reseller_id !== user.id) throw appError('SLUG_TAKEN');
    }
    const packageId = input.package_id === undefined ? (own?.package_id ?? null) : input.package_id;
    // the trial packages the lines module lets the account create trials from
    if (input.package_id !== undefined && packageId !== null) await trialTerms(trx, packageId, nowSec());
    const enabled = input.enabled === undefined ? (own?.enabled ?? 0) : input.enabled ? 1 : 0;
    if (enabled) {
      if (!slug) throw validation('slug', 'needed to turn the trial page on', 'REQUIRED_TO_ENABLE');
      if (packageId === null) throw validation('package_id', 'needed to turn the trial page on', 'REQUIRED_TO_ENABLE');
      // the trials' credentials go out by WhatsApp only: without the gateway no trial could be given
      if (!ready) throw validation('enabled', 'set up the WhatsApp gateway (Lembretes) first', 'REQUIRED_TO_ENABLE');
    }
    const message = input.message === undefined ? (own?.message ?? null) : input.message?.trim() || null;
    await repo.savePage(trx, {
      reseller_id: user.id,
      enabled,
      slug,
      package_id: packageId,
      per_day: input.per_day ?? own?.per_day ?? DEFAULT_PER_DAY,
      message,
      updated_at: nowSec(),
    });
  });
  return getSettings(deps, user, origin);
}

const SLUG = /^[a-z0-9-]{3,40}$/;

/**
 * A page that can give trials now: its owner active, on, with a trial package, and (for trials
 * sent by WhatsApp) the owner's WhatsApp gateway set up.
 */
async function openPage(deps: Deps, page: repo.PageRow | undefined, opts: { whatsapp: boolean } = { whatsapp: true }) {
  const db = deps.database.db;
  const owner = page && (await repo.owner(db, page.reseller_id));
  if (!page || !owner) throw appError('NOT_FOUND', { params: { what: 'Trial page' } });
  const pkg = page.package_id === null ? undefined : await findPackage(db, page.package_id);
  const off = !owner.active || page.enabled !== 1 || pkg?.is_trial !== 1 || pkg.is_official !== 0;
  if (off || (opts.whatsapp && !(await whatsappGatewayReady(deps, owner.id)))) throw appError('NOT_CONFIGURED', { params: { what: 'This trial page' } });
  return { page, owner, pkg };
}

const pageOfSlug = async (deps: Deps, slug: string) => (SLUG.test(slug) ? repo.pageBySlug(deps.database.db, slug) : undefined);

/** Whether the account's trial page gives trials now (its Telegram bot's `/teste` asks; no WhatsApp gateway needed there). */
export async function trialPageOpen(deps: Deps, resellerId: number): Promise<boolean> {
  try {
    await openPage(deps, await repo.pageOf(deps.database.db, resellerId), { whatsapp: false });
    return true;
  } catch {
    return false;
  }
}

/** What the public page `/teste/<slug>` shows. */
export async function publicPage(deps: Deps, slug: string) {
  const { page, owner, pkg } = await openPage(deps, await pageOfSlug(deps, slug));
  return {
    slug: page.slug as string,
    reseller_name: owner.username,
    whatsapp: owner.whatsapp,
    message: page.message,
    package_name: pkg.package_name,
    duration: pkg.trial_duration,
    duration_in: pkg.trial_duration_in,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
function formatLocal(ts: number, tz: string) {
  const l = localTime(ts, tz);
  return `${pad(l.day)}/${pad(l.month)}/${l.year} ${pad(l.hour)}:${pad(l.minute)}`;
}

/** The WhatsApp message that hands the trial over: the only place its credentials are given. */
export function trialMessage(p: { message: string | null; username: string; password: string; playlist: string; account: string; expires: string }) {
  return [
    p.message ? `${p.message}\n` : null,
    '*Seu teste está pronto!*',
    `Usuário: ${p.username}`,
    `Senha: ${p.password}`,
    `Lista (M3U): ${p.playlist}`,
    `Válido até: ${p.expires}`,
    p.account ? `\nSua conta e renovação: ${p.account}` : null,
  ]
    .filter((l) => l !== null)
    .join('\n');
}

const retryAfter = (freeAt: number | undefined, now: number) => Math.max(1, (freeAt ?? now) + DAY - now);

/**
 * A trial for `whatsapp` from the page `slug`, asked from `clientIp`: checked and created in one
 * transaction (createCounted). Then, outside the transaction, the message
 * goes out; if it does not, a second transaction removes the line, refunds it and marks the
 * request `failed`, which no limit counts. The answer never carries the credentials.
 */
export async function requestTrial(deps: Deps, body: { slug: string; whatsapp: string }, clientIp: string) {
  // an IPv6 client is counted by its /64, as the sign-in limits count it (one holder has all of it)
  const ip = clientNetwork(clientIp);
  const number = brazilianMobile(body.whatsapp);
  if (!number) throw validation('whatsapp', 'a Brazilian mobile number with area code', 'NOT_PHONE');
  const open = await openPage(deps, await pageOfSlug(deps, body.slug));
  const { page, owner } = open;
  // the message's links never come from the request's Host (anyone may post here, the message goes to a third party)
  if (!deps.config.publicUrl) throw appError('NOT_CONFIGURED', { params: { what: 'PUBLIC_URL' } });
  const created = await createCounted(deps, open, number, ip, 'trial_create_page');

  const { line } = created;
  let out: Awaited<ReturnType<typeof sendWhatsAppOf>>;
  try {
    const links = await originalLinks(deps.database.db, line, panelOrigin(deps.config, deps.config.publicUrl));
    const text = trialMessage({
      message: page.message,
      username: line.username,
      password: line.password,
      playlist: links.m3u8,
      account: await renewalLink(deps, line.id, nowSec()),
      expires: formatLocal(line.exp_date, deps.config.timeZone),
    });
    out = await sendWhatsAppOf(deps, owner, number, text);
  } catch (err) {
    // the gateway was unset meanwhile (NOT_CONFIGURED), or the panel failed before sending: nothing stays
    await undo(deps, owner, created, err instanceof Error ? err.message : String(err));
    throw err;
  }
  if (!out.ok) {
    await undo(deps, owner, created, out.answer);
    throw appError('UPSTREAM_ERROR', { params: { system: 'WhatsApp (Evolution API)', detail: `the message could not be sent (${out.reason}); no trial was created, try again` } });
  }
  // sent: from here the trial stays whatever happens, and the owner's Telegram chat hears of it
  await withTx(deps.database, async (trx) => {
    await repo.finishRequest(trx, created.requestId, 'sent', null);
    await tellSale(deps, trx, { sellerId: owner.id, via: 'trial_page', event: 'line.created', line, credits: created.charged });
  });
  return { status: 'sent' as const };
}

type OpenPage = Awaited<ReturnType<typeof openPage>>;

/**
 * The limits checked and the trial created, in one transaction that holds the page owner's row and
 * the client's key (its address, or its Telegram account) on PostgreSQL (SQLite's writers are
 * serialised), so two requests for one number, or from one client, cannot both pass a check. A
 * `trial_requests` row in status `sending` records it; `inTx` runs last in the same transaction.
 */
async function createCounted(deps: Deps, open: OpenPage, number: string, clientKey: string, logAction: string, via?: 'telegram', inTx?: (trx: Tx, line: LineRow, requestId: number) => Promise<void>) {
  const { page, owner, pkg } = open;
  return withTx(deps.database, async (trx) => {
    await lockResellers(trx, deps.database.dialect, [owner.id]);
    await repo.lockAddress(trx, deps.database.dialect, clientKey);
    const now = nowSec();
    if (await repo.numberUsedSince(trx, owner.id, number, now - NUMBER_WINDOW)) throw appError('TRIAL_ALREADY_USED', { field: 'whatsapp' });
    const byIp = await repo.windowOf(trx, { ip: clientKey }, now - DAY, PER_IP);
    if (byIp.count >= PER_IP) throw appError('TRIAL_LIMIT', { retryAfter: retryAfter(byIp.freeAt, now) });
    const byAccount = await repo.windowOf(trx, { resellerId: owner.id }, now - DAY, page.per_day);
    if (byAccount.count >= page.per_day) throw appError('TRIAL_LIMIT', { retryAfter: retryAfter(byAccount.freeAt, now) });
    const trial = await createTrialIn(deps, trx, owner, { package_id: pkg.id, whatsapp: number }, { dailyLimit: false, logAction, via });
    const requestId = await repo.insertRequest(trx, { reseller_id: owner.id, whatsapp: number, ip: clientKey, line_id: trial.line.id, created_at: now });
    await inTx?.(trx, trial.line, requestId);
    return { ...trial, requestId };
  });
}

/**
 * A trial asked for in the account's Telegram bot (`/teste`), for the number of the contact the
 * customer shared: the page's rules and limits (its per_day, once per number, 3 per Telegram
 * account a day), without the WhatsApp gateway: `deliver` queues the page's message and the
 * credentials to the chat in the creation's own transaction, so the trial and its message exist
 * together or not at all.
 */
export async function trialForChat(deps: Deps, resellerId: number, phone: string, clientKey: string, deliver: (trx: Tx, line: LineRow, pageMessage: string | null) => Promise<void>) {
  const number = brazilianMobile(phone);
  if (!number) throw validation('whatsapp', 'a Brazilian mobile number with area code', 'NOT_PHONE');
  const open = await openPage(deps, await repo.pageOf(deps.database.db, resellerId), { whatsapp: false });
  return createCounted(deps, open, number, clientKey, 'trial_create_telegram', 'telegram', async (trx, line, requestId) => {
    await repo.finishRequest(trx, requestId, 'sent', null);
    await deliver(trx, line, open.page.message);
  });
}

/** The second transaction: the trial line removed and refunded (lines' undoCreation), the request `failed`. */
async function undo(deps: Deps, owner: AuthUser, created: { line: { id: number }; charged: number; requestId: number }, why: string) {
  try {
    await withTx(deps.database, async (trx) => {
      await undoCreation(deps, trx, owner, created.line.id, created.charged, `trial page: message not sent: ${why}`);
      await repo.finishRequest(trx, created.requestId, 'failed', why);
    });
  } catch (err) {
    processLogger().error({ err, lineId: created.line.id }, 'trial page: removing a trial whose message failed did not work');
    throw err;
  }
}
