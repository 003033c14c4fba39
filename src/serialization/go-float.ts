/**
 * Go's strconv.ParseFloat(s, 64), which pflag uses for float flags: Go's syntax (decimal, or
 * hexadecimal with a p exponent; underscores between digits; Inf, Infinity and NaN in any case)
 * and its errors, since the flag's message carries them. JavaScript's Number() takes other text
 * ("", " 1", "0x10") and refuses some Go takes ("1_000", "inf").
 */
import { goQuote } from './go-format.js';

const DECIMAL = /^(?:[0-9_]+(?:\.[0-9_]*)?|\.[0-9_]+)(?:[eE][+-]?[0-9_]+)?$/;
const HEXADECIMAL = /^0[xX](?:[0-9a-fA-F_]+(?:\.[0-9a-fA-F_]*)?|\.[0-9a-fA-F_]+)[pP][+-]?[0-9_]+$/;
const SPECIAL: Readonly<Record<string, number>> = { inf: Infinity, infinity: Infinity, nan: NaN };

/** The value, or Go's error (`strconv.ParseFloat: parsing "x": invalid syntax`, or value out of range). */
export function parseGoFloat(text: string): { readonly value: number; readonly error?: string } {
  const error = (why: string) => `strconv.ParseFloat: parsing ${goQuote(text)}: ${why}`;
  const negative = text.startsWith('-');
  const unsigned = negative || text.startsWith('+') ? text.slice(1) : text;
  const special = SPECIAL[unsigned.toLowerCase()];
  if (special !== undefined) {
    if (Number.isNaN(special) && unsigned !== text) return { value: 0, error: error('invalid syntax') };
    return { value: negative ? -special : special };
  }
  const hex = HEXADECIMAL.test(unsigned);
  if ((!hex && !DECIMAL.test(unsigned)) || !underscoresBetweenDigits(unsigned, hex)) return { value: 0, error: error('invalid syntax') };
  const magnitude = hex ? hexValue(unsigned.replace(/_/g, '')) : Number(unsigned.replace(/_/g, ''));
  const value = negative ? -magnitude : magnitude;
  return Number.isFinite(value) ? { value } : { value, error: error('value out of range') };
}

/** Go allows an underscore only between two digits, or between a base prefix and a digit. */
function underscoresBetweenDigits(s: string, hex: boolean): boolean {
  const digit = hex ? /[0-9a-fA-F]/ : /[0-9]/;
  for (let i = s.indexOf('_'); i >= 0; i = s.indexOf('_', i + 1)) {
    const before = s[i - 1] ?? '';
    const after = s[i + 1] ?? '';
    const afterPrefix = hex && i === 2;
    if (!(digit.test(before) || afterPrefix) || !digit.test(after)) return false;
  }
  return true;
}

/** 0x<mantissa>p<exponent>, exactly enough for a flag (the mantissa's digits as a double). */
function hexValue(s: string): number {
  const p = s.search(/[pP]/);
  const [whole = '', fraction = ''] = s.slice(2, p).split('.');
  const mantissa = parseInt(whole + fraction || '0', 16);
  return mantissa * 2 ** (Number(s.slice(p + 1)) - 4 * fraction.length);
}
