/**
 * Go's strconv.ParseInt and ParseUint in base 10, which upstream uses for integer flags, query
 * parameters and debug endpoints: Go's result and strconv's error text (`strconv.ParseInt: parsing
 * "x": invalid syntax`), since clients and scripts see that text as it is.
 */
import { goQuote } from './go-format.js';

export type GoIntParser = 'ParseInt' | 'ParseUint';

/** 64-bit bounds, as strconv.Atoi and ParseInt(s, 10, 64) take them. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * What strconv returns for `text` within [min, max]: the value and no error; or the error with 0
 * (invalid syntax) or the nearest bound (out of range), which callers that ignore the error keep.
 */
export function parseGoInt(text: string, parser: GoIntParser, min: bigint, max: bigint): { readonly value: bigint; readonly error?: string } {
  const syntax = parser === 'ParseInt' ? /^[+-]?[0-9]+$/ : /^[0-9]+$/;
  const error = (why: string) => `strconv.${parser}: parsing ${goQuote(text)}: ${why}`;
  if (!syntax.test(text)) return { value: 0n, error: error('invalid syntax') };
  const n = BigInt(text);
  if (n < min) return { value: min, error: error('value out of range') };
  if (n > max) return { value: max, error: error('value out of range') };
  return { value: n };
}
