/**
 * Query parameters read as upstream's generated url.Values conversions read them: the first value
 * of a parameter counts; a bool is true unless "0" or "false"; integers parse as Go's strconv
 * does, and a value that does not parse is a 400 with strconv's words.
 */
import { badRequest } from '../api/errors.js';
import { INT64_MAX, INT64_MIN, parseGoInt, type GoIntParser } from './go-int.js';

/**
 * runtime.Convert_Slice_string_To_bool: present and neither "0" nor "false" in any case. Any other
 * value, the empty one included, is true; no value is refused.
 */
export function queryBool(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  return value !== null && value !== '0' && value.toLowerCase() !== 'false';
}

/** runtime.Convert_Slice_string_To_Pointer_bool: as queryBool, and undefined when absent. */
export function queryOptionalBool(query: URLSearchParams, name: string): boolean | undefined {
  return query.has(name) ? queryBool(query, name) : undefined;
}

/** strconv.ParseInt(value, 10, 64), or undefined when absent; a present empty value is refused, as upstream. */
export function queryInt64(query: URLSearchParams, name: string): bigint | undefined {
  const value = query.get(name);
  return value === null ? undefined : parseGoInteger(value, 'ParseInt', INT64_MIN, INT64_MAX, '');
}

/**
 * strconv.Parse{Int,Uint} in base 10 within [min, max]. Throws 400 with strconv's error text after
 * `context` (the words a conversion puts before it).
 */
export function parseGoInteger(value: string, parser: GoIntParser, min: bigint, max: bigint, context: string): bigint {
  const parsed = parseGoInt(value, parser, min, max);
  if (parsed.error !== undefined) throw badRequest(`${context}${parsed.error}`);
  return parsed.value;
}
