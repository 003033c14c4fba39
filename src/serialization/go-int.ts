/**
 * Go's strconv.ParseInt, ParseUint and Atoi, which upstream uses for integer flags, query
 * parameters and debug endpoints: Go's result and strconv's error text (`strconv.ParseInt: parsing
 * "x": invalid syntax`), since clients and scripts see that text as it is.
 */
import { goQuote } from './go-format.js';

/** The strconv function whose syntax and name (in the error text) apply. Atoi is ParseInt in base 10. */
export type GoIntParser = 'ParseInt' | 'ParseUint' | 'Atoi';

/**
 * 10, or 0 for Go's literal syntax as pflag's int flags take it: a 0x, 0o or 0b prefix (any case),
 * a leading 0 for octal, and underscores between digits.
 */
export type GoIntBase = 10 | 0;

/** 64-bit bounds, as strconv.Atoi and ParseInt(s, 10, 64) take them. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
/** 32-bit bounds, as ParseInt(s, 10, 32) takes them. */
export const INT32_MIN = -(2n ** 31n);
export const INT32_MAX = 2n ** 31n - 1n;

/** What strconv returns: the value, and its error's text when there is one. */
export interface GoIntResult {
  readonly value: bigint;
  readonly error?: string;
  /**
   * Set when the error is strconv.ErrRange rather than ErrSyntax, for callers that word their
   * errors themselves (Go's flag package).
   */
  readonly outOfRange?: true;
}

/**
 * What strconv returns for `text` within [min, max]: the value and no error; or the error with 0
 * (invalid syntax) or the nearest bound (out of range), which callers that ignore the error keep.
 */
export function parseGoInt(
  text: string, parser: GoIntParser, min: bigint, max: bigint, base: GoIntBase = 10,
): GoIntResult {
  const error = (why: string) => `strconv.${parser}: parsing ${goQuote(text)}: ${why}`;
  const signed = parser !== 'ParseUint';
  const sign = signed && (text[0] === '+' || text[0] === '-') ? text[0] : '';
  const magnitude = base === 10 ? decimal(text.slice(sign.length)) : literal(text.slice(sign.length));
  if (magnitude === undefined) return { value: 0n, error: error('invalid syntax') };
  const n = sign === '-' ? -magnitude : magnitude;
  if (n < min) return { value: min, error: error('value out of range'), outOfRange: true };
  if (n > max) return { value: max, error: error('value out of range'), outOfRange: true };
  return { value: n };
}

function decimal(digits: string): bigint | undefined {
  return /^[0-9]+$/.test(digits) ? BigInt(digits) : undefined;
}

const PREFIXES: Readonly<Record<string, { readonly radix: number; readonly js: string }>> = {
  b: { radix: 2, js: '0b' }, o: { radix: 8, js: '0o' }, x: { radix: 16, js: '0x' },
};

/** An unsigned Go integer literal (base 0), or undefined where strconv reports invalid syntax. */
function literal(s: string): bigint | undefined {
  if (s === '') return undefined;
  let radix = 10;
  let js = '';
  let digits = s;
  if (s[0] === '0') {
    // A prefix needs a digit (or underscore) after it: "0x" alone is octal 0 followed by an x.
    const prefix = s.length >= 3 ? PREFIXES[s[1]!.toLowerCase()] : undefined;
    ({ radix, js } = prefix ?? { radix: 8, js: '0o' });
    digits = s.slice(prefix ? 2 : 1);
  }
  let underscores = false;
  for (const c of digits) {
    if (c === '_') underscores = true;
    else if (!(parseInt(c, 36) < radix)) return undefined;
  }
  if (underscores && !underscoresBetweenDigits(s)) return undefined;
  const plain = digits.replaceAll('_', '');
  return plain === '' ? 0n : BigInt(js + plain);
}

/**
 * Go's rule for underscores in a literal: each one follows a digit or the base prefix and is
 * followed by a digit, so none leads, trails or comes twice in a row.
 */
function underscoresBetweenDigits(s: string): boolean {
  const prefixed = s.length >= 2 && s[0] === '0' && 'box'.includes(s[1]!.toLowerCase());
  const hex = prefixed && s[1]!.toLowerCase() === 'x';
  let previous: 'digit' | 'underscore' | 'other' | 'start' = prefixed ? 'digit' : 'start';
  for (const c of s.slice(prefixed ? 2 : 0)) {
    if (/[0-9]/.test(c) || (hex && /[a-f]/i.test(c))) previous = 'digit';
    else if (c === '_') {
      if (previous !== 'digit') return false;
      previous = 'underscore';
    } else {
      if (previous === 'underscore') return false;
      previous = 'other';
    }
  }
  return previous !== 'underscore';
}
