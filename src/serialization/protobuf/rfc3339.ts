/**
 * The two time formats of the JSON model: metav1.Time is RFC 3339 in UTC with whole seconds
 * (`2026-11-21T08:42:17Z`), metav1.MicroTime has exactly six fractional digits
 * (`2026-11-21T08:42:17.123456Z`). On the wire both are {seconds, nanos} since the Unix epoch.
 */

/** A point in time as the wire carries it. */
export interface Timestamp {
  readonly seconds: number;
  readonly nanos: number;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Days since 1970-01-01 of a proleptic Gregorian date (exact for every year, unlike Date.UTC). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Parses an RFC 3339 time; undefined when the text is not one. */
export function parseRfc3339(text: string): Timestamp | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]! || hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (m[8] !== undefined) {
    const offsetHours = Number(m[9]);
    const offsetMinutes = Number(m[10]);
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    offset = (m[8] === '-' ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
  }
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  const nanos = m[7] === undefined ? 0 : Number(m[7].padEnd(9, '0'));
  return { seconds, nanos };
}

/** `YYYY-MM-DDTHH:MM:SS` in UTC; undefined outside the years JavaScript dates reach. */
function formatSeconds(seconds: number): string | undefined {
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) return undefined;
  const iso = date.toISOString();
  // Years outside 0000..9999 come out as +YYYYYY / -YYYYYY: still unambiguous, and Go has no
  // better answer for them either.
  return iso.slice(0, iso.length - 5);
}

/** metav1.Time's JSON form (fractions of a second are dropped, as upstream drops them). */
export function formatTime(seconds: number): string | undefined {
  const text = formatSeconds(seconds);
  return text === undefined ? undefined : `${text}Z`;
}

/** metav1.MicroTime's JSON form; nanoseconds are truncated to microseconds. */
export function formatMicroTime(seconds: number, nanos: number): string | undefined {
  const micros = Math.trunc(nanos / 1000);
  const carry = Math.floor(micros / 1_000_000);
  const text = formatSeconds(seconds + carry);
  if (text === undefined) return undefined;
  const fraction = String(micros - carry * 1_000_000).padStart(6, '0');
  return `${text}.${fraction}Z`;
}
