/**
 * Go's encoding/json type-mismatch messages, which upstream passes through to clients:
 * `json: cannot unmarshal array into Go value of type map[string]interface {}`.
 */

/** Go's name for the JSON type of a decoded value: object, array, string, number or bool. */
export function goJsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null || typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

/** `json: cannot unmarshal <type of value> into Go value of type <goType>`. */
export function cannotUnmarshal(value: unknown, goType: string): string {
  return `json: cannot unmarshal ${goJsonType(value)} into Go value of type ${goType}`;
}

/** `json: cannot unmarshal <type of value> into Go struct field <struct>.<field> of type <goType>`. */
export function cannotUnmarshalField(value: unknown, struct: string, field: string, goType: string): string {
  return `json: cannot unmarshal ${goJsonType(value)} into Go struct field ${struct}.${field} of type ${goType}`;
}
