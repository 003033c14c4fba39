/**
 * Query parameters read as upstream's generated url.Values conversions read them: the first value
 * of a parameter counts; a bool is true unless "0", "f" or "false"; integers parse as Go's strconv
 * does, and a value that does not parse is a 400 with strconv's words.
 */
import { badRequest } from '../../api/errors.js';
import { goQuote } from '../../serialization/go-format.js';

/** runtime.Convert_Slice_string_To_bool: present and not 0/f/false (any case). */
export function queryBool(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  return value !== null && value !== '0' && value.toLowerCase() !== 'f' && value.toLowerCase() !== 'false';
}

/** strconv.ParseInt(value, 10, 64), or undefined when absent. */
export function queryInt64(query: URLSearchParams, name: string): bigint | undefined {
  const value = query.get(name);
  return value === null ? undefined : parseGoInteger(value, 'ParseInt', -(2n ** 63n), 2n ** 63n - 1n, '');
}

/**
 * strconv.Parse{Int,Uint} in base 10 within [min, max]. Throws 400 with strconv's error text after
 * `context` (the words a conversion puts before it).
 */
export function parseGoInteger(value: string, parser: 'ParseInt' | 'ParseUint', min: bigint, max: bigint, context: string): bigint {
  const syntax = parser === 'ParseInt' ? /^[+-]?[0-9]+$/ : /^[0-9]+$/;
  const fail = (why: string) => badRequest(`${context}strconv.${parser}: parsing ${goQuote(value)}: ${why}`);
  if (!syntax.test(value)) throw fail('invalid syntax');
  const n = BigInt(value);
  if (n < min || n > max) throw fail('value out of range');
  return n;
}
