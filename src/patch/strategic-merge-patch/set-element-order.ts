/**
 * `$setElementOrder/<field>`: the order a merged list ends in. kubectl apply and edit send it beside
 * a merge list they change, naming every element (by merge key, or by value for scalars) that the
 * list should hold, in order:
 *
 *   $setElementOrder/containers: [{name: b}, {name: a}]
 *   containers: [{name: a, image: x}]
 *
 * The field's patch list (if any) is merged first; then the elements the order names are sorted by
 * it, and the server's other elements interleaved as element-order.ts describes. The patch list
 * must name its elements in the same relative order as the directive (deleted elements aside).
 */
import { defineMember } from '../json-document.js';
import { SLICE_TYPE, formatGo, goEqual, isJsonMap, type JsonMap } from './go-value.js';
import { SET_ELEMENT_ORDER, directiveField, hasPatchDirective, listOrMapStrategy } from './directives.js';
import { elementType, normalizeOrder, partitionMaps, partitionScalars, splitDeletions } from './element-order.js';
import { mergeListFieldWithLive } from './merge-list.js';
import { removeDirectives } from './new-value.js';
import type { PatchSchema } from './patch-schema.js';
import { badArgType, mergeFailure, noMergeKey, notAMap } from './smp-errors.js';

/**
 * Processes every `$setElementOrder/<field>` of `patch` into `original` (upstream's
 * mergePatchIntoOriginal). The directives and the patch lists they ordered are removed from
 * `patch`; `original` gets the ordered lists. Throws ApiError 400, 422 or 500 as upstream.
 */
export function applyElementOrders(original: JsonMap, patch: JsonMap, schema: PatchSchema): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw badArgType(SLICE_TYPE, order);
    applyElementOrder(original, patch, directiveField(key, SET_ELEMENT_ORDER), order, schema);
  }
}

function listAt(map: JsonMap, field: string): unknown[] | undefined {
  if (!Object.hasOwn(map, field)) return undefined;
  const value = map[field];
  if (!Array.isArray(value)) throw badArgType(SLICE_TYPE, value);
  return value;
}

function applyElementOrder(original: JsonMap, patch: JsonMap, field: string, order: unknown[], schema: PatchSchema): void {
  const live = listAt(original, field);
  const patchList = listAt(patch, field);
  const { schema: elements, meta } = schema.forList(field);
  const strategy = listOrMapStrategy(meta.strategies);
  const mergeKey = meta.mergeKey;
  checkRelativeOrder(patchList ?? [], order, mergeKey);

  let merged: unknown[];
  let liveAfter: readonly unknown[] = live ?? [];
  if (live !== undefined && patchList !== undefined) {
    ({ merged, liveAfter } = mergeListFieldWithLive(live, patchList, { elements, strategy, mergeKey, deleteList: false }));
  } else if (patchList !== undefined) {
    merged = removeDirectives(patchList) as unknown[];
  } else if (live !== undefined) {
    merged = live;
  } else {
    return;
  }
  const partition = mergeKey === '' ? partitionScalars(merged, order) : partitionMaps(merged, order, mergeKey);
  const type = elementType(liveAfter, patchList ?? []);
  defineMember(original, field, normalizeOrder(partition, order, liveAfter, mergeKey, type));
  delete patch[field];
}

/** Whether two elements are the same one: by merge key for maps, by value otherwise. */
function sameElement(a: unknown, b: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return goEqual(a, b);
  if (!isJsonMap(a)) throw notAMap(a);
  if (!isJsonMap(b)) throw notAMap(b);
  if (!Object.hasOwn(a, mergeKey)) throw noMergeKey(a, mergeKey);
  if (!Object.hasOwn(b, mergeKey)) throw noMergeKey(b, mergeKey);
  return goEqual(a[mergeKey], b[mergeKey]);
}

/**
 * Checks that the patch list names its elements in the order's relative order, skipping deletions
 * and other directive elements (upstream's validatePatchWithSetOrderList). Throws 500 otherwise.
 */
function checkRelativeOrder(patchList: readonly unknown[], order: readonly unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const elements = mergeKey === '' ? patchList : splitDeletions(patchList).kept;
  let p = 0;
  let o = 0;
  while (p < elements.length && o < order.length) {
    if (hasPatchDirective(elements[p])) {
      p++;
      continue;
    }
    if (sameElement(elements[p], order[o], mergeKey)) p++;
    o++;
  }
  if (p < elements.length && o >= order.length) {
    throw mergeFailure(`The order in patch list:\n${formatGo(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${formatGo(order)}\n`);
  }
}
