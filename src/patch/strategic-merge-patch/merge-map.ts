/**
 * Merging a patch map into a live map, upstream's mergeMap. In order:
 *
 * 1. `$patch: replace` makes the patch (without the directive) the map; `$patch: delete` makes it
 *    empty; any other `$patch` value is an error.
 * 2. `$retainKeys` clears the live members it does not list (retain-keys.ts).
 * 3. `$setElementOrder/<field>` lists merge their field and fix its order (set-element-order.ts).
 * 4. Every other member: null deletes; a value with nothing of its type to merge into is taken as
 *    it is (new-value.ts); maps merge recursively unless the field's strategy is `replace`; lists
 *    merge by their field's strategy (merge-list.ts); scalars replace.
 *    `$deleteFromPrimitiveList/<field>` merges into `<field>` as a list of values to remove.
 */
import { defineMember } from '../json-document.js';
import { MAP_TYPE, SLICE_TYPE, goTypeOf, type JsonMap } from './go-value.js';
import { DELETE, DELETE_FROM_PRIMITIVE_LIST, PATCH_DIRECTIVE, REPLACE, directiveField, listOrMapStrategy } from './directives.js';
import { mergeListField } from './merge-list.js';
import { takenAsIs } from './new-value.js';
import type { PatchSchema } from './patch-schema.js';
import { applyRetainKeys } from './retain-keys.js';
import { applyElementOrders } from './set-element-order.js';
import { unknownPatchType } from './smp-errors.js';

/**
 * Merges `patch` into `original` and returns the result, which is `original` modified in place
 * unless a `$patch` directive replaces it. `patch` is consumed (directives are removed from it and
 * its values end up in the result). Throws ApiError 400, 422 or 500 as upstream answers.
 */
export function mergeMap(original: JsonMap, patch: JsonMap, schema: PatchSchema): JsonMap {
  if (Object.hasOwn(patch, PATCH_DIRECTIVE)) return applyMapDirective(patch);
  applyRetainKeys(original, patch);
  applyElementOrders(original, patch, schema);
  for (const key of Object.keys(patch)) mergeMember(original, key, patch[key], schema);
  return original;
}

function applyMapDirective(patch: JsonMap): JsonMap {
  const directive = patch[PATCH_DIRECTIVE];
  if (directive === REPLACE) {
    delete patch[PATCH_DIRECTIVE];
    return patch;
  }
  if (directive === DELETE) return {};
  throw unknownPatchType(directive, patch);
}

function setOrDelete(target: JsonMap, key: string, value: unknown): void {
  if (value === undefined) delete target[key];
  else defineMember(target, key, value);
}

function mergeMember(target: JsonMap, key: string, value: unknown, schema: PatchSchema): void {
  const deleteList = key.startsWith(DELETE_FROM_PRIMITIVE_LIST);
  const field = deleteList ? directiveField(key, DELETE_FROM_PRIMITIVE_LIST) : key;
  if (value === null) {
    delete target[field];
    return;
  }
  const current = Object.hasOwn(target, field) ? target[field] : undefined;
  const type = goTypeOf(current);
  if (current === undefined || type !== goTypeOf(value)) {
    // A list of values to delete from a field that has no such list deletes nothing.
    if (!deleteList) setOrDelete(target, field, takenAsIs(value));
    return;
  }
  if (type === MAP_TYPE) {
    const { schema: child, meta } = schema.forMap(field);
    const merged = listOrMapStrategy(meta.strategies) === REPLACE ? value : mergeMap(current as JsonMap, value as JsonMap, child);
    defineMember(target, field, merged);
  } else if (type === SLICE_TYPE) {
    const { schema: elements, meta } = schema.forList(field);
    const list = { elements, strategy: listOrMapStrategy(meta.strategies), mergeKey: meta.mergeKey, deleteList };
    defineMember(target, field, mergeListField(current as unknown[], value as unknown[], list));
  } else {
    defineMember(target, field, value);
  }
}
