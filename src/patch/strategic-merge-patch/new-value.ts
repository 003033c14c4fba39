/**
 * A patch value taken as it is, because the live object has nothing to merge it into (the field is
 * missing or of another type). Upstream first drops null members at every depth (a null says
 * "delete", and there is nothing to delete), then drops every map that carries a `$patch` directive
 * — including `$patch: replace`, so a replace directive under a field the object does not have yet
 * removes that field from the result. Other directives (`$retainKeys`, `$setElementOrder/...`) are
 * left in place, as upstream leaves them; the schema check then reports them as unknown fields.
 */
import { isJsonMap } from './go-value.js';
import { PATCH_DIRECTIVE } from './directives.js';

/** Removes null members of maps, at any depth and inside lists; null list elements stay. Mutates `value`. */
function discardNulls(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) discardNulls(item);
  } else if (isJsonMap(value)) {
    for (const key of Object.keys(value)) {
      if (value[key] === null) delete value[key];
      else discardNulls(value[key]);
    }
  }
}

/**
 * `value` without maps that carry `$patch` (upstream's removeDirectives): such map members are
 * deleted and such list elements dropped; undefined when `value` itself is such a map. Maps are
 * modified in place; lists are copied.
 */
export function removeDirectives(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const kept = removeDirectives(item);
      if (kept !== undefined) out.push(kept);
    }
    return out;
  }
  if (!isJsonMap(value)) return value;
  if (Object.hasOwn(value, PATCH_DIRECTIVE)) return undefined;
  for (const key of Object.keys(value)) {
    const kept = removeDirectives(value[key]);
    if (kept === undefined) delete value[key];
    else value[key] = kept;
  }
  return value;
}

/** {@link discardNulls} then {@link removeDirectives}: how upstream takes a value with nothing to merge into. */
export function takenAsIs(value: unknown): unknown {
  discardNulls(value);
  return removeDirectives(value);
}
