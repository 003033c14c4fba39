/**
 * Checks that bytes hold a JSON object, reporting failures with the texts of Go's encoding/json
 * (upstream validates docker config secrets by unmarshalling into a map and prints its error).
 */
import { cannotUnmarshal } from '../../serialization/go-json-errors.js';

/** The Go error text, or undefined when `text` is a JSON object. */
export function goJsonObjectError(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return syntaxError(text);
  }
  // Go unmarshals null into a map as a no-op.
  if (parsed === null || (typeof parsed === 'object' && !Array.isArray(parsed))) return undefined;
  return cannotUnmarshal(parsed, 'map[string]interface {}');
}

function syntaxError(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return 'unexpected end of JSON input';
  const first = trimmed[0]!;
  if (!'{["-0123456789tfn'.includes(first)) return `invalid character '${first}' looking for beginning of value`;
  return 'unexpected end of JSON input';
}
