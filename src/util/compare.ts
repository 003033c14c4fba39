/** Orders strings by UTF-16 code units, as Go orders strings of ASCII (keys, names) and `sort()` does. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Past this many strings, sortCodeUnits leaves the work to Array.prototype.sort. */
const INSERTION_SORT_LIMIT = 16;

/**
 * Sorts `names` in place by UTF-16 code units and returns them. An object's few keys are sorted
 * on every write (field sets): an insertion sort is ~4x faster than Array.prototype.sort there
 * and allocates nothing.
 */
export function sortCodeUnits(names: string[]): string[] {
  if (names.length > INSERTION_SORT_LIMIT) return names.sort(compareCodeUnits);
  for (let i = 1; i < names.length; i++) {
    const name = names[i]!;
    let j = i - 1;
    for (; j >= 0 && names[j]! > name; j--) names[j + 1] = names[j]!;
    names[j + 1] = name;
  }
  return names;
}
