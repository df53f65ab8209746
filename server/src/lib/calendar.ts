// Calendar days and hours in the reminders' time zone (America/Sao_Paulo unless REMINDERS_TIME_ZONE
// says otherwise): stages fall on calendar days, quiet hours are wall-clock times.

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(tz, f);
  }
  return f;
}

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

// A tick asks for the same few instants again and again (the start of today for every account and
// message, the instants around it); formatToParts is the costly part, so recent answers are kept.
const recent = new Map<string, Readonly<LocalTime>>();

export function localTime(ts: number, tz: string): Readonly<LocalTime> {
  const key = `${tz}|${ts}`;
  let l = recent.get(key);
  if (!l) {
    const parts: Record<string, number> = {};
    for (const p of formatter(tz).formatToParts(new Date(ts * 1000))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
    l = Object.freeze({ year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! });
    if (recent.size >= 1024) recent.clear();
    recent.set(key, l);
  }
  return l;
}

/** Local minus UTC, in seconds, at instant `ts`. */
export function zoneOffset(ts: number, tz: string): number {
  const l = localTime(ts, tz);
  const s = new Date(ts * 1000).getUTCSeconds();
  return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, s) / 1000 - ts;
}

/** The instant the local calendar day of `ts`, moved by `days`, begins. */
export function dayStart(ts: number, tz: string, days = 0): number {
  const l = localTime(ts, tz);
  const midnightUtc = Date.UTC(l.year, l.month - 1, l.day + days) / 1000;
  const guess = midnightUtc - zoneOffset(midnightUtc, tz);
  return midnightUtc - zoneOffset(guess, tz);
}

/** Whole calendar days from `from`'s day to `to`'s day. */
export function daysBetween(from: number, to: number, tz: string): number {
  return Math.round((dayStart(to, tz) - dayStart(from, tz)) / 86_400);
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Is `ts` inside the sending hours [from, to) (wrapping past midnight when from > to)? */
export function inSendingHours(ts: number, tz: string, hours: { from: string; to: string }): boolean {
  const l = localTime(ts, tz);
  const now = l.hour * 60 + l.minute;
  const from = minutes(hours.from);
  const to = minutes(hours.to);
  if (from === to) return true;
  return from < to ? now >= from && now < to : now >= from || now < to;
}

// Calendar days as numbers (days since 1970-01-01 of the local date) and months (year * 12 +
// month - 1): what the reports' kept counts are keyed by (modules/reports).

/** The local calendar day of instant `ts` in `tz`. */
export function localDay(ts: number, tz: string): number {
  const l = localTime(ts, tz);
  return Date.UTC(l.year, l.month - 1, l.day) / 86_400_000;
}

/** 'YYYY-MM-DD' of a day number. */
export const isoOfDay = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** The day number of a 'YYYY-MM-DD' date; undefined when it is not a real date. */
export function dayOfIso(iso: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return isoOfDay(ms / 86_400_000) === iso ? ms / 86_400_000 : undefined;
}

/** The month number (year * 12 + month - 1) a day number falls in. */
export function monthOfDay(day: number): number {
  const d = new Date(day * 86_400_000);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

/** The day number a month number begins on. */
export const firstDayOfMonth = (month: number): number => Date.UTC(Math.floor(month / 12), month % 12, 1) / 86_400_000;

/** The day number of the Monday on or before `day` (1970-01-01 was a Thursday). */
export const mondayOf = (day: number): number => day - ((day + 3) % 7);

/**
 * The panel's time zone: its calendar days (reports, reminder stages, the PIX renewal's day) and
 * wall-clock hours. PANEL_TIME_ZONE; REMINDERS_TIME_ZONE is its older name, still read.
 */
export function panelTimeZone(env: NodeJS.ProcessEnv): string {
  const name = env.PANEL_TIME_ZONE?.trim() ? 'PANEL_TIME_ZONE' : 'REMINDERS_TIME_ZONE';
  const tz = env[name]?.trim() || 'America/Sao_Paulo';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw new Error(`${name} must be an IANA time zone, got "${tz}"`);
  }
  return tz;
}
