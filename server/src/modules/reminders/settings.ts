import type { Deps } from '../../deps.ts';
import type { Tx } from '../../db/tx.ts';
import { type SettingsRow, ancestorSettings, ownSettings } from './repo.ts';
import { DEFAULT_QUIET, DEFAULT_STAGES, DEFAULT_TEMPLATES, LANGUAGES, type Language, STAGES, type Stage } from './stages.ts';

// An account's reminder settings as they apply: each of stages, sending hours, language and every
// (stage, language) template comes from the account's own row, else from its nearest master that
// set it, else the built-in default. Channels and the on/off switch are the account's own.

export type Templates = Record<Stage, Record<Language, string>>;

export interface Schedule {
  stages: Stage[];
  quiet_hours: { from: string; to: string };
  language: Language;
  templates: Templates;
}

export interface Effective extends Schedule {
  enabled: boolean;
  email_enabled: boolean;
  whatsapp: { base_url: string | null; instance: string | null; key_sealed: string | null };
  /** what the account would have without its own values (its masters' or the built-in) */
  inherited: Schedule;
}

const parse = <T>(raw: string | null): T | undefined => (raw ? (JSON.parse(raw) as T) : undefined);

/** The schedule that rows give, first row first, over the built-in defaults. */
export function layered(rows: SettingsRow[]): Schedule {
  const pick = <T>(get: (r: SettingsRow) => T | undefined | null, fallback: T): T => {
    for (const r of rows) {
      const v = get(r);
      if (v !== undefined && v !== null) return v;
    }
    return fallback;
  };
  const templates = {} as Templates;
  const parsed = rows.map((r) => parse<Partial<Record<Stage, Partial<Record<Language, string>>>>>(r.templates) ?? {});
  for (const stage of STAGES) {
    templates[stage] = {} as Record<Language, string>;
    for (const lang of LANGUAGES) templates[stage][lang] = parsed.find((t) => t[stage]?.[lang] !== undefined)?.[stage]?.[lang] ?? DEFAULT_TEMPLATES[stage][lang];
  }
  return {
    stages: pick((r) => parse<Stage[]>(r.stages), DEFAULT_STAGES),
    quiet_hours: pick((r) => (r.quiet_from && r.quiet_to ? { from: r.quiet_from, to: r.quiet_to } : undefined), DEFAULT_QUIET),
    language: pick((r) => r.language as Language | null, 'pt' as Language),
    templates,
  };
}

export async function effectiveSettings(db: Tx, resellerId: number): Promise<Effective> {
  const [own, masters] = await Promise.all([ownSettings(db, resellerId), ancestorSettings(db, resellerId)]);
  return {
    ...layered(own ? [own, ...masters] : masters),
    inherited: layered(masters),
    enabled: own?.enabled === 1,
    email_enabled: own?.email_enabled === 1,
    whatsapp: { base_url: own?.whatsapp_base_url ?? null, instance: own?.whatsapp_instance ?? null, key_sealed: own?.whatsapp_key_sealed ?? null },
  };
}

/** Which channels can send for these settings now. */
export function channelsReady(deps: Deps, s: Pick<Effective, 'email_enabled' | 'whatsapp'>) {
  return {
    whatsapp: Boolean(s.whatsapp.base_url && s.whatsapp.instance && s.whatsapp.key_sealed),
    email: s.email_enabled && Boolean(deps.config.smtpUrl && deps.config.smtpFrom),
  };
}
