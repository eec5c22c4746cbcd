// Calendar arithmetic in a user's time zone (digests, the /summary periods), with nothing but
// Intl: a local wall-clock time is turned into an instant by asking Intl for the zone's offset
// and correcting once more around DST changes. Days start at local midnight; weeks on Monday.

export interface LocalDate {
  year: number;
  month: number; // 1..12
  day: number;
}

export interface LocalDateTime extends LocalDate {
  hour: number;
  minute: number;
  second: number;
  /** 1 = Monday … 7 = Sunday */
  weekday: number;
}

const fmtCache = new Map<string, Intl.DateTimeFormat>();
const formatter = (tz: string) => {
  let f = fmtCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    fmtCache.set(tz, f);
  }
  return f;
};

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time in `tz` at instant `at`. */
export function toLocal(at: Date, tz: string): LocalDateTime {
  const parts: Record<string, string> = {};
  for (const p of formatter(tz).formatToParts(at)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS[parts.weekday] ?? 1,
  };
}

/** Offset of `tz` from UTC at `at`, in milliseconds (east positive). */
function offsetMs(at: Date, tz: string): number {
  const l = toLocal(at, tz);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant at which the wall clock in `tz` reads the given local time (the later one if it repeats; the first valid one if it is skipped). */
export function fromLocal(d: LocalDate, tz: string, hour = 0, minute = 0): Date {
  const guess = Date.UTC(d.year, d.month - 1, d.day, hour, minute);
  let t = guess - offsetMs(new Date(guess), tz);
  const second = guess - offsetMs(new Date(t), tz);
  if (second !== t) t = second;
  return new Date(t);
}

/** Calendar day arithmetic (no time zone involved). */
export function addDays(d: LocalDate, n: number): LocalDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

export function addMonths(d: LocalDate, n: number): LocalDate {
  const t = new Date(Date.UTC(d.year, d.month - 1 + n, 1));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: d.day };
}

export const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

export const startOfLocalDay = (at: Date, tz: string): Date => fromLocal(toLocal(at, tz), tz);

export function localDateOf(at: Date, tz: string): LocalDate {
  const l = toLocal(at, tz);
  return { year: l.year, month: l.month, day: l.day };
}

/** Monday of the local week containing `at`. */
export function mondayOf(at: Date, tz: string): LocalDate {
  const l = toLocal(at, tz);
  return addDays(l, 1 - l.weekday);
}

export const formatLocalDate = (d: LocalDate) =>
  `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

export function parseLocalDate(text: string): LocalDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (d.month < 1 || d.month > 12 || d.day < 1 || d.day > daysInMonth(d.year, d.month)) return null;
  return d;
}
