import { withTx } from '../../db/tx.ts';
import { cursorOf } from '../../http/paging.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError, validation } from '../../http/errors.ts';

import { nowSec } from '../../lib/clock.ts';
import { outboundUrl } from '../../lib/ssrf/outbound-url.ts';
import { findVisibleLine } from '../lines/service.ts';
import { paymentsOpen } from '../payments/service.ts';
import { sealSecret } from '../twofactor/service.ts';
import { dayStart } from '../../lib/calendar.ts';
import { compose } from './compose.ts';
import { renewalLink } from './renewal-link.ts';
import * as repo from './repo.ts';
import { KEY_PURPOSE, checkWhatsAppOf, sendThrough } from './send.ts';
import { type Effective, type Schedule, channelsReady, effectiveSettings } from './settings.ts';
import { type Channel, type Language, STAGES, type Stage, TEST_TEXT, unknownVariable } from './stages.ts';
import { whatsappNumber } from './whatsapp.ts';

// An account's reminder settings, previews, test messages, history and today's figures.

export interface SettingsInput {
  enabled?: boolean;
  stages?: Stage[];
  language?: Language;
  quiet_hours?: { from: string; to: string };
  templates?: Partial<Record<Stage, Partial<Record<Language, string>>>>;
  channels?: {
    whatsapp?: { base_url?: string | null; instance?: string | null; api_key?: string | null };
    email?: { enabled?: boolean };
  };
}

/** What the browser sees: the settings as they apply, what they'd be inherited, never the gateway key. */
function shown(deps: Deps, s: Effective) {
  const ready = channelsReady(deps, s);
  return {
    enabled: s.enabled,
    stages: s.stages,
    language: s.language,
    quiet_hours: s.quiet_hours,
    templates: s.templates,
    inherited: s.inherited,
    channels: {
      whatsapp: { base_url: s.whatsapp.base_url, instance: s.whatsapp.instance, api_key_set: s.whatsapp.key_sealed !== null, ready: ready.whatsapp },
      email: { enabled: s.email_enabled, smtp_configured: Boolean(deps.config.smtpUrl && deps.config.smtpFrom), ready: ready.email },
    },
  };
}

export async function getSettings(deps: Deps, user: AuthUser) {
  return shown(deps, await effectiveSettings(deps.database.db, user.id));
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Saves the caller's settings. A field left out keeps its value; a schedule value equal to what
 * the account inherits is stored as "inherit", so a master's later change still reaches it.
 */
export async function putSettings(deps: Deps, user: AuthUser, input: SettingsInput) {
  for (const [stage, langs] of Object.entries(input.templates ?? {})) {
    for (const [lang, text] of Object.entries(langs ?? {})) {
      const unknown = unknownVariable(text ?? '');
      if (unknown !== undefined) throw appError('TEMPLATE_UNKNOWN_VARIABLE', { field: `templates.${stage}.${lang}`, params: { variable: unknown } });
    }
  }
  const wa = input.channels?.whatsapp;
  const baseUrl = wa?.base_url ? (await outboundUrl(deps.config.outboundAllowNetworks, wa.base_url, 'channels.whatsapp.base_url')).replace(/\/+$/, '') : wa?.base_url;
  const sealedKey = wa?.api_key ? await sealSecret(deps, user.id, wa.api_key, KEY_PURPOSE) : wa?.api_key;
  await withTx(deps.database, async (trx) => {
    const current = await effectiveSettings(trx, user.id);
    const own = await repo.ownSettings(trx, user.id);
    const inherited: Schedule = current.inherited;
    const stages = input.stages ? STAGES.filter((s) => input.stages!.includes(s)) : undefined;
    // templates: the account's own texts, those equal to the inherited ones dropped
    const ownTemplates: Record<string, Record<string, string>> = own?.templates ? JSON.parse(own.templates) : {};
    for (const [stage, langs] of Object.entries(input.templates ?? {})) {
      for (const [lang, text] of Object.entries(langs ?? {})) {
        const inheritedText = inherited.templates[stage as Stage][lang as Language];
        ownTemplates[stage] ??= {};
        if (text === undefined || text.trim() === '' || text === inheritedText) delete ownTemplates[stage]![lang];
        else ownTemplates[stage]![lang] = text;
        if (Object.keys(ownTemplates[stage]!).length === 0) delete ownTemplates[stage];
      }
    }
    const pick = <T>(given: T | undefined, inheritedValue: T, ownValue: string | null): string | null =>
      given === undefined ? ownValue : sameJson(given, inheritedValue) ? null : JSON.stringify(given);
    const quiet = input.quiet_hours === undefined ? undefined : sameJson(input.quiet_hours, inherited.quiet_hours) ? null : input.quiet_hours;
    const row: repo.SettingsRow = {
      reseller_id: user.id,
      enabled: input.enabled === undefined ? (own?.enabled ?? 0) : input.enabled ? 1 : 0,
      stages: pick(stages, inherited.stages, own?.stages ?? null),
      quiet_from: quiet === undefined ? (own?.quiet_from ?? null) : (quiet?.from ?? null),
      quiet_to: quiet === undefined ? (own?.quiet_to ?? null) : (quiet?.to ?? null),
      language: input.language === undefined ? (own?.language ?? null) : input.language === inherited.language ? null : input.language,
      templates: Object.keys(ownTemplates).length ? JSON.stringify(ownTemplates) : null,
      email_enabled: input.channels?.email?.enabled === undefined ? (own?.email_enabled ?? 0) : input.channels.email.enabled ? 1 : 0,
      whatsapp_base_url: baseUrl === undefined ? (own?.whatsapp_base_url ?? null) : baseUrl,
      whatsapp_instance: wa?.instance === undefined ? (own?.whatsapp_instance ?? null) : wa.instance?.trim() || null,
      whatsapp_key_sealed: sealedKey === undefined ? (own?.whatsapp_key_sealed ?? null) : sealedKey,
      updated_at: nowSec(),
    };
    // on with no channel that can send: saved "on", it would send nothing, ever
    const ready = channelsReady(deps, {
      email_enabled: row.email_enabled === 1,
      whatsapp: { base_url: row.whatsapp_base_url, instance: row.whatsapp_instance, key_sealed: row.whatsapp_key_sealed },
    });
    if (row.enabled === 1 && !ready.whatsapp && !ready.email) throw appError('REMINDERS_NO_CHANNEL');
    await repo.saveSettings(trx, row);
  });
  return getSettings(deps, user);
}

/** A stage's text for a real line of the caller's (the one named, else the soonest to expire). */
export async function preview(deps: Deps, user: AuthUser, body: { stage: Stage; language?: Language; text?: string; line_id?: number }) {
  if (body.text !== undefined) {
    const unknown = unknownVariable(body.text);
    if (unknown !== undefined) throw appError('TEMPLATE_UNKNOWN_VARIABLE', { field: 'text', params: { variable: unknown } });
  }
  const db = deps.database.db;
  const settings = await effectiveSettings(db, user.id);
  const line = await repo.previewLine(db, user.id, body.line_id);
  if (body.line_id && !line) throw appError('NOT_FOUND', { params: { what: 'Line' } });
  const [account, paying] = await Promise.all([repo.accountContact(db, user.id), paymentsOpen(deps, user.id)]);
  const template = body.text ?? settings.templates[body.stage][body.language ?? settings.language];
  const sample: repo.ReminderLine = { id: 0, username: 'cliente', exp_date: nowSec() + 3 * 86_400, whatsapp: null, email: null, member_id: user.id, package_name: 'Completo' };
  const text = await compose(deps, template, line ?? sample, { username: user.username, whatsapp: account?.whatsapp ?? null, payments_open: paying }, nowSec());
  return { text, line: line ? { id: line.id, username: line.username } : null };
}

/**
 * Sends a test message through one channel now (not counted as a reminder). A gateway that fails is
 * an answer, not an error: `failure` says why (failure.ts), for the page to say it in place.
 */
export async function sendTest(deps: Deps, user: AuthUser, body: { channel: Channel; to: string }) {
  const settings = await effectiveSettings(deps.database.db, user.id);
  const account = await repo.accountContact(deps.database.db, user.id);
  let to = body.to.trim();
  if (body.channel === 'whatsapp') {
    const number = whatsappNumber(to);
    if (!number) throw validation('to', 'a WhatsApp number with area code', 'NOT_PHONE');
    to = number;
  } else if (!/^[^\s@]+@[^\s@]+$/.test(to)) throw validation('to', 'an e-mail address', 'NOT_EMAIL');
  const out = await sendThrough(deps, body.channel, settings, { id: user.id, username: user.username, email: account?.email ?? null }, to, TEST_TEXT[settings.language]);
  if (!out.ok) return { ok: false, answer: out.answer, failure: { reason: out.reason, status: out.status } };
  return { ok: true, answer: out.answer, failure: null };
}

/** Asks the WhatsApp gateway now whether it answers with WhatsApp connected (the page's badge). */
export async function checkWhatsApp(deps: Deps, user: AuthUser) {
  const out = await checkWhatsAppOf(deps, await effectiveSettings(deps.database.db, user.id), user.id);
  return out.ok ? { ok: true, failure: null } : { ok: false, failure: { reason: out.reason, status: out.status } };
}

/**
 * The customer's renewal link for one of the caller's lines (the panel's WhatsApp message): only
 * when the line's owner takes PIX payments and the panel has a public address, else null.
 */
export async function lineRenewalLink(deps: Deps, user: AuthUser, lineId: number) {
  const line = await findVisibleLine(deps.database.db, user, lineId);
  if (!line) throw appError('NOT_FOUND', { params: { what: 'Line' } });
  if (!(await paymentsOpen(deps, line.member_id))) return { url: null };
  return { url: (await renewalLink(deps, line.id, nowSec())) || null };
}

export async function history(deps: Deps, user: AuthUser, q: repo.HistoryFilters & { page?: number; per?: number; after?: string; before?: string }) {
  return repo.history(deps.database.db, user.id, q, q.page ?? 1, q.per ?? 10, cursorOf(q));
}

/** The dashboard card: today's reminders (calendar day in the reminders' time zone). */
export async function today(deps: Deps, user: AuthUser) {
  const db = deps.database.db;
  const [counts, own] = await Promise.all([repo.countsSince(db, user.id, dayStart(nowSec(), deps.config.timeZone)), repo.ownSettings(db, user.id)]);
  return { enabled: own?.enabled === 1, sent: counts.sent ?? 0, failed: counts.failed ?? 0, waiting: (counts.retry ?? 0) + (counts.sending ?? 0) };
}

/** The account's own WhatsApp gateway (Evolution API) is set up: URL, instance and key (other features send through it). */
export async function whatsappGatewayReady(deps: Deps, resellerId: number): Promise<boolean> {
  return channelsReady(deps, await effectiveSettings(deps.database.db, resellerId)).whatsapp;
}

/**
 * One WhatsApp message now through the account's gateway, for another feature (self-service
 * trials): not a reminder, not recorded here. NOT_CONFIGURED when the gateway is not set up.
 */
export async function sendWhatsAppOf(deps: Deps, account: { id: number; username: string }, to: string, text: string) {
  const settings = await effectiveSettings(deps.database.db, account.id);
  return sendThrough(deps, 'whatsapp', settings, { id: account.id, username: account.username, email: null }, to, text);
}

export { dayStart } from '../../lib/calendar.ts';
export { renewalLink } from './renewal-link.ts';
export { lineOfToken } from './renewal-link.ts';
