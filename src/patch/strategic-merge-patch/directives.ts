/**
 * The directives a strategic merge patch may carry besides plain fields. `$patch` sits inside the
 * map (or list element) it governs; the others are keys beside the field they act on:
 *
 *   spec:
 *     $setElementOrder/containers: [{name: b}, {name: a}]   # final order of spec.containers
 *     containers: [{name: a, image: x}]                     # merged by name
 *     $retainKeys: [containers, volumes]                    # clear every other field of spec
 *   metadata:
 *     $deleteFromPrimitiveList/finalizers: [f1]             # remove f1 from metadata.finalizers
 */
import { BadFormat, badPatchFormat, mergeFailure } from './smp-errors.js';

/** `$patch: replace | delete` (and `merge`, which upstream rejects). */
export const PATCH_DIRECTIVE = '$patch';
export const REPLACE = 'replace';
export const DELETE = 'delete';
export const MERGE = 'merge';

/** The merge strategy that also honours `$retainKeys`; combined with others as `merge,retainKeys`. */
export const RETAIN_KEYS_STRATEGY = 'retainKeys';
export const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
export const SET_ELEMENT_ORDER = '$setElementOrder';

export type DirectivePrefix = typeof DELETE_FROM_PRIMITIVE_LIST | typeof SET_ELEMENT_ORDER;

/**
 * The field a prefixed directive key names: `containers` for `$setElementOrder/containers`.
 * Everything after the first `/` is the field, which may be empty. Throws 400 with upstream's text
 * when the key does not start with exactly `prefix/` (`$setElementOrderX/a`, `$setElementOrder`).
 */
export function directiveField(key: string, prefix: DirectivePrefix): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw badPatchFormat(prefix === SET_ELEMENT_ORDER ? BadFormat.setElementOrder : BadFormat.primitiveList);
  }
  return key.slice(slash + 1);
}

/** Whether a value is a map carrying `$patch` (upstream's containsDirectiveMarker). */
export function hasPatchDirective(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, PATCH_DIRECTIVE);
}

/**
 * The strategy other than retainKeys among a field's comma-separated strategies (`merge` for
 * `merge,retainKeys`), or "" for none. Throws 500 as upstream for more than two, or two without
 * retainKeys; generated schemas never hold such.
 */
export function listOrMapStrategy(strategies: readonly string[]): string {
  if (strategies.length === 0) return '';
  if (strategies.length === 1) return strategies[0] === RETAIN_KEYS_STRATEGY ? '' : strategies[0]!;
  if (strategies.length === 2 && strategies[0] === RETAIN_KEYS_STRATEGY) return strategies[1]!;
  if (strategies.length === 2 && strategies[1] === RETAIN_KEYS_STRATEGY) return strategies[0]!;
  throw mergeFailure(`unexpected patch strategy: [${strategies.join(' ')}]`);
}
