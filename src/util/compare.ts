/** Orders strings by UTF-16 code units, as Go orders strings of ASCII (keys, names) and `sort()` does. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
