// The reminder stages, template variables and built-in texts (docs/reminders.md).

export const STAGES = ['before_7', 'before_3', 'before_1', 'day', 'after_1', 'after_3'] as const;
export type Stage = (typeof STAGES)[number];

/** Days from the expiry's calendar day to the stage's day (in the reminders' time zone). */
export const STAGE_OFFSET_DAYS: Record<Stage, number> = { before_7: -7, before_3: -3, before_1: -1, day: 0, after_1: 1, after_3: 3 };

export const DEFAULT_STAGES: Stage[] = ['before_3', 'day'];
export const DEFAULT_QUIET = { from: '08:00', to: '21:00' };
export const LANGUAGES = ['pt', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const CHANNELS = ['whatsapp', 'email'] as const;
export type Channel = (typeof CHANNELS)[number];

export const VARIABLES = ['nome', 'usuario', 'vencimento', 'dias', 'pacote', 'link_renovacao', 'whatsapp_revenda'] as const;
export type Variables = Record<(typeof VARIABLES)[number], string>;

// A part in [brackets] is left out when a variable in it is empty (no package, no renewal link
// because PIX is off, no WhatsApp of the reseller's), so no text ends in "fale comigo:" and nothing.
const PT_LINKS = '\n[Renove aqui: {link_renovacao}]\n[Fale comigo: {whatsapp_revenda}]';
const EN_LINKS = '\n[Renew here: {link_renovacao}]\n[Message me: {whatsapp_revenda}]';
const PT_BEFORE = `Olá {nome}! Seu acesso ({usuario}[, {pacote}]) vence em {dias} dias, em {vencimento}.${PT_LINKS}`;
const EN_BEFORE = `Hi {nome}! Your access ({usuario}[, {pacote}]) expires in {dias} days, on {vencimento}.${EN_LINKS}`;
const PT_AFTER = `Olá {nome}! Seu acesso ({usuario}[, {pacote}]) venceu em {vencimento}.${PT_LINKS}`;
const EN_AFTER = `Hi {nome}! Your access ({usuario}[, {pacote}]) expired on {vencimento}.${EN_LINKS}`;

export const DEFAULT_TEMPLATES: Record<Stage, Record<Language, string>> = {
  before_7: { pt: PT_BEFORE, en: EN_BEFORE },
  before_3: { pt: PT_BEFORE, en: EN_BEFORE },
  before_1: {
    pt: `Olá {nome}! Seu acesso ({usuario}[, {pacote}]) vence amanhã, {vencimento}.${PT_LINKS}`,
    en: `Hi {nome}! Your access ({usuario}[, {pacote}]) expires tomorrow, {vencimento}.${EN_LINKS}`,
  },
  day: {
    pt: `Olá {nome}! Seu acesso ({usuario}[, {pacote}]) vence hoje, {vencimento}.${PT_LINKS}`,
    en: `Hi {nome}! Your access ({usuario}[, {pacote}]) expires today, {vencimento}.${EN_LINKS}`,
  },
  after_1: { pt: PT_AFTER, en: EN_AFTER },
  after_3: { pt: PT_AFTER, en: EN_AFTER },
};

export const EMAIL_SUBJECT: Record<Language, string> = { pt: 'Lembrete de vencimento', en: 'Expiry reminder' };
export const TEST_TEXT: Record<Language, string> = {
  pt: 'Mensagem de teste do painel: os lembretes de vencimento chegarão assim.',
  en: 'A test message from the panel: expiry reminders will arrive like this.',
};

const PLACEHOLDER = /\{([^{}\s]*)\}/g;

/** The first {name} in `text` that is not a template variable, or undefined. */
export function unknownVariable(text: string): string | undefined {
  for (const m of text.matchAll(PLACEHOLDER)) if (!(VARIABLES as readonly string[]).includes(m[1]!)) return m[1];
  return undefined;
}

const OPTIONAL = /\[([^[\]]*)\]/g;
const fill = (text: string, vars: Variables) => text.replace(PLACEHOLDER, (whole, name: string) => (name in vars ? vars[name as keyof Variables] : whole));

/**
 * The text with the variables' values. A [part] holding variables is left out when one of them is
 * empty, and loses its brackets otherwise; brackets around no variable stay as written. A line left
 * empty by a part left out goes too (the built-in texts keep each optional part on a line of its own).
 */
export function render(text: string, vars: Variables): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    let dropped = false;
    const kept = line.replace(OPTIONAL, (whole, inner: string) => {
      const names = [...inner.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((n) => n in vars);
      if (names.length === 0) return whole;
      if (names.some((n) => vars[n as keyof Variables] === '')) {
        dropped = true;
        return '';
      }
      return inner;
    });
    if (!(dropped && kept.trim() === '')) lines.push(fill(kept, vars));
  }
  return lines.join('\n');
}
