/**
 * Go duration syntax ("1m0s", "300ms", "1.5h", "-2s"), which upstream's options and the
 * `timeout` query parameter use. Values are milliseconds (fractions allowed below 1 ms).
 */

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Parses a Go duration into milliseconds. Throws an Error with Go's own message
 * (`time: invalid duration "x"`, `time: missing unit in duration "1"`, `time: unknown unit ...`).
 */
export function parseDuration(text: string): number {
  const quoted = JSON.stringify(text);
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw new Error(`time: invalid duration ${quoted}`);
  let total = 0;
  while (rest !== '') {
    const number = /^(\d*)(\.\d*)?/.exec(rest)!;
    if (number[0] === '' || number[0] === '.') throw new Error(`time: invalid duration ${quoted}`);
    rest = rest.slice(number[0].length);
    const unit = /^[^\d.]*/.exec(rest)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`);
    const ms = UNIT_MS[unit];
    if (ms === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    total += Number(number[0]) * ms;
    rest = rest.slice(unit.length);
  }
  return sign * total;
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
