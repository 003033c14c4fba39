/**
 * Go duration syntax ("1m0s", "300ms", "1.5h", "-2s"), which upstream's options and the
 * `timeout` query parameter use. Values are milliseconds (fractions allowed below 1 ms).
 */

/** Nanoseconds per unit, as Go's time package counts them. */
const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5, the micro sign
  'μs': 1_000n, // U+03BC, the Greek letter mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** A Duration is an int64 of nanoseconds: |d| may reach 2^63 only when negative. */
const MAX_MAGNITUDE_NS = 2n ** 63n;

/**
 * Parses a Go duration into milliseconds. Throws an Error with Go's own message
 * (`time: invalid duration "x"`, `time: missing unit in duration "1"`, `time: unknown unit ...`),
 * including for values past an int64 of nanoseconds (about 292 years).
 */
export function parseDuration(text: string): number {
  const invalid = () => new Error(`time: invalid duration ${goTimeQuote(text)}`);
  let rest = text;
  const negative = rest.startsWith('-');
  if (negative || rest.startsWith('+')) rest = rest.slice(1);
  if (rest === '0') return 0;
  if (rest === '') throw invalid();
  let totalNs = 0n;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    const [whole, integer = '', fraction] = number;
    if (integer === '' && (fraction === undefined || fraction === '')) throw invalid();
    rest = rest.slice(whole.length);
    const unit = /^[^\d.]*/.exec(rest)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${goTimeQuote(text)}`);
    const unitNs = UNIT_NS[unit];
    if (unitNs === undefined) throw new Error(`time: unknown unit ${goTimeQuote(unit)} in duration ${goTimeQuote(text)}`);
    rest = rest.slice(unit.length);
    let ns = BigInt(integer === '' ? '0' : integer) * unitNs;
    // Go adds the fraction in floating point, truncated, as here.
    if (fraction !== undefined && fraction !== '') ns += BigInt(Math.trunc(Number(`0.${fraction}`) * Number(unitNs)));
    totalNs += ns;
    if (totalNs > MAX_MAGNITUDE_NS) throw invalid();
  }
  if (!negative && totalNs === MAX_MAGNITUDE_NS) throw invalid();
  const ms = Number(totalNs) / 1e6;
  return negative ? -ms : ms;
}

/**
 * A string quoted as Go's time package quotes it in these errors: `"` and `\` escaped, and every
 * byte of a control or non-ASCII character written as \xNN (not strconv's escapes).
 */
function goTimeQuote(s: string): string {
  let out = '"';
  for (const char of s) {
    const code = char.codePointAt(0)!;
    if (code >= 0x20 && code < 0x80) out += char === '"' || char === '\\' ? `\\${char}` : char;
    else for (const byte of Buffer.from(char)) out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return out + '"';
}

/** Formats milliseconds as Go prints a duration: "1m0s", "300ms", "2h0m0s", "0s". */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1000) return `${sign}${trim(abs)}ms`;
  const hours = Math.floor(abs / 3_600_000);
  const minutes = Math.floor((abs % 3_600_000) / 60_000);
  const seconds = (abs % 60_000) / 1000;
  const s = `${trim(seconds)}s`;
  if (hours > 0) return `${sign}${hours}h${minutes}m${s}`;
  if (minutes > 0) return `${sign}${minutes}m${s}`;
  return `${sign}${s}`;
}

function trim(n: number): string {
  return String(Number(n.toFixed(6)));
}
