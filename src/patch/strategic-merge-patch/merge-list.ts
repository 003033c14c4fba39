/**
 * Merging a list field. Only a field whose strategy is `merge` is merged (and a
 * `$deleteFromPrimitiveList` list, whatever the strategy); any other list is replaced by the
 * patch's, taken exactly as sent. A merged list of scalars is the union of both; a merged list of
 * maps is matched by the merge key:
 *
 *   live:  [{name: a, image: x, args: [1]}, {name: b, image: y}]
 *   patch: [{name: a, image: z}, {name: c, image: w}, {name: b, $patch: delete}]
 *   →      [{name: a, image: z, args: [1]}, {name: c, image: w}]
 *
 * An element `{$patch: replace}` makes the patch's other elements the whole list. The result is
 * ordered as element-order.ts describes.
 */
import { MAP_TYPE, goHashKey, type GoType, type JsonMap } from './go-value.js';
import { DELETE, MERGE, PATCH_DIRECTIVE, REPLACE } from './directives.js';
import { elementType, normalizeOrder, partitionMaps, partitionScalars } from './element-order.js';
import { mergeMap } from './merge-map.js';
import type { PatchSchema } from './patch-schema.js';
import { mergeFailure, noMergeKey, unknownPatchType } from './smp-errors.js';
import { FirstPositions, MergeKeyIndex } from './value-positions.js';

/** How one list field merges: its element schema, strategy and merge key. */
export interface ListField {
  readonly elements: PatchSchema;
  /** The field's strategy other than retainKeys ("merge", "replace" or ""). */
  readonly strategy: string;
  readonly mergeKey: string;
  /** Whether the patch list is a `$deleteFromPrimitiveList` list: values to remove. */
  readonly deleteList: boolean;
}

/** A merged list, and the live list as upstream's caller sees it afterwards. */
export interface MergedList {
  readonly merged: unknown[];
  /**
   * The live list's elements as the caller's Go slice holds them after the merge, which upstream's
   * `$setElementOrder` handling orders the server's elements by. Go removes elements by shifting
   * them left within the same array and appends into the slots this frees, so the caller's slice
   * (still of the old length) shows the surviving elements followed by the first appended ones.
   */
  readonly liveAfter: readonly unknown[];
}

/**
 * Merges the patch list of a field into the live one (upstream's mergeSliceHandler). `original` and
 * its maps may be modified; the result may share the patch's elements.
 * @throws ApiError 422 for lists of lists; 500 for a map without the merge key, mixed element
 * types, an unknown or `merge` `$patch` directive — upstream's statuses.
 */
export function mergeListField(original: unknown[], patch: unknown[], field: ListField): unknown[] {
  return mergeListFieldWithLive(original, patch, field).merged;
}

/** {@link mergeListField}, also returning the live list as upstream's caller sees it afterwards. */
export function mergeListFieldWithLive(original: unknown[], patch: unknown[], field: ListField): MergedList {
  if (field.strategy !== MERGE && !field.deleteList) return { merged: patch, liveAfter: original };
  if (original.length === 0 && patch.length === 0) return { merged: original, liveAfter: original };
  const type = elementType(original, patch);
  if (type !== MAP_TYPE) {
    if (field.deleteList) return { merged: withoutValues(original, patch), liveAfter: original };
    const union = [...new Map([...original, ...patch].map((v) => [goHashKey(v), v])).values()];
    return { merged: ordered(union, patch, original, field.mergeKey, type), liveAfter: original };
  }
  if (field.mergeKey === '') throw mergeFailure(`cannot merge lists without merge key for ${field.elements.kind}`);
  const { survivors, elements, replace } = applyElementDirectives(original as JsonMap[], patch as JsonMap[], field.mergeKey);
  if (replace) return { merged: ordered([...elements], [], elements, field.mergeKey, type), liveAfter: survivors };
  const merged = mergeByKey(survivors, elements, field);
  const liveAfter = merged.slice(0, original.length);
  return { merged: ordered(merged, elements, survivors, field.mergeKey, type), liveAfter };
}

/** The merged list in upstream's order: patch elements by `patch`, server elements by `live`. */
function ordered(merged: unknown[], patch: readonly unknown[], live: readonly unknown[], mergeKey: string, type: GoType): unknown[] {
  const partition = mergeKey === '' ? partitionScalars(merged, patch) : partitionMaps(merged, patch, mergeKey);
  return normalizeOrder(partition, patch, live, mergeKey, type);
}

/** The live values not named in `toDelete` (upstream's deleteFromSlice). */
function withoutValues(original: readonly unknown[], toDelete: readonly unknown[]): unknown[] {
  const doomed = new Set(toDelete.map(goHashKey));
  return original.filter((v) => !doomed.has(goHashKey(v)));
}

interface ElementDirectives {
  /** The live maps no `$patch: delete` element named. */
  readonly survivors: JsonMap[];
  /** The patch elements without a `$patch` directive. */
  readonly elements: JsonMap[];
  /** Whether a `$patch: replace` element makes {@link elements} the whole list. */
  readonly replace: boolean;
}

/**
 * Applies the `$patch` elements of a patch list (upstream's mergeSliceWithSpecialElements):
 * `delete` removes every live map with that key; `replace` makes the other patch elements the list.
 */
function applyElementDirectives(original: JsonMap[], patch: JsonMap[], mergeKey: string): ElementDirectives {
  const elements: JsonMap[] = [];
  const doomed = new FirstPositions();
  let replace = false;
  for (const element of patch) {
    if (!Object.hasOwn(element, PATCH_DIRECTIVE)) {
      elements.push(element);
      continue;
    }
    const directive = element[PATCH_DIRECTIVE];
    if (directive === DELETE) {
      if (!Object.hasOwn(element, mergeKey)) throw noMergeKey(element, mergeKey);
      doomed.add(element[mergeKey], 0); // a set of keys, compared as Go compares them
    } else if (directive === REPLACE) {
      replace = true;
    } else if (directive === MERGE) {
      throw mergeFailure('merging lists cannot yet be specified in the patch');
    } else {
      throw unknownPatchType(directive, element);
    }
  }
  const survivors = original.filter((m) => !(Object.hasOwn(m, mergeKey) && doomed.find(m[mergeKey]) >= 0));
  return { survivors, elements, replace };
}

/**
 * Merges each patch map into the first live map with the same key, or appends it (upstream's
 * mergeSliceWithoutSpecialElements); a later patch map with the same key merges into the appended one.
 */
function mergeByKey(live: readonly JsonMap[], patch: readonly JsonMap[], field: ListField): JsonMap[] {
  const merged = [...live];
  const index = new MergeKeyIndex(merged, field.mergeKey);
  for (const element of patch) {
    if (!Object.hasOwn(element, field.mergeKey)) throw noMergeKey(element, field.mergeKey);
    const at = index.find(element[field.mergeKey]);
    if (at >= 0) {
      merged[at] = mergeMap(merged[at]!, element, field.elements);
    } else {
      merged.push(element);
      index.add(element);
    }
  }
  return merged;
}
