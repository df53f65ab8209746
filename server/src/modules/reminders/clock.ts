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
function offset(ts: number, tz: string): number {
  const l = localTime(ts, tz);
  const s = new Date(ts * 1000).getUTCSeconds();
  return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, s) / 1000 - ts;
}

/** The instant the local calendar day of `ts`, moved by `days`, begins. */
export function dayStart(ts: number, tz: string, days = 0): number {
  const l = localTime(ts, tz);
  const midnightUtc = Date.UTC(l.year, l.month - 1, l.day + days) / 1000;
  const guess = midnightUtc - offset(midnightUtc, tz);
  return midnightUtc - offset(guess, tz);
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
