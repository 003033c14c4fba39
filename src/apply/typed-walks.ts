/**
 * The walks server-side apply makes over objects, guided by their types (field-types.ts):
 * - fieldSetOf: the fields a value sets (what an applier owns);
 * - compare: what changed between two values (what an updater takes over, what conflicts);
 * - merge: an applied configuration laid over the live object;
 * - removeFields: the fields an applier gave up and nobody else owns, taken out.
 * Values are JSON data; a member whose value is undefined does not exist.
 */
import { jsonEqual } from '../patch/json-equal.js';
import { FieldSet } from './field-set.js';
import type { FieldTypes, FieldType } from './field-types.js';
import { fieldElement, indexElement, keyElement, pathString, valueElement, type PathElement } from './path-element.js';
import { isPlainObject } from '../util/plain-object.js';

type JsonMap = Record<string, unknown>;

function isEmptyMapOrNull(v: unknown): boolean {
  return v === null || v === undefined || (isPlainObject(v) && Object.keys(v).length === 0);
}

/** How the items of an associative list are named. */
interface ItemNaming {
  readonly keys: readonly string[] | undefined;
  readonly keyDefaults: ReadonlyMap<string, unknown>;
}

/**
 * The element naming a list item: its key fields (a key field it leaves out takes its default),
 * its value (in a set), or, for an item that fits neither, its index.
 */
export function itemElement(naming: ItemNaming, item: unknown, index: number): PathElement {
  const { keys } = naming;
  if (keys === undefined) return isPlainObject(item) || Array.isArray(item) ? indexElement(index) : valueElement(item);
  if (!isPlainObject(item)) return indexElement(index);
  const fields: Array<[string, unknown]> = [];
  for (const k of keys) {
    const v = item[k] !== undefined ? item[k] : naming.keyDefaults.get(k);
    if (v !== undefined) fields.push([k, v]);
  }
  return fields.length > 0 ? keyElement(fields) : indexElement(index);
}

/** A list's items by the key of their element (the first of duplicates wins), in order. */
export function indexItems(naming: ItemNaming, list: readonly unknown[]): Map<string, { element: PathElement; item: unknown }> {
  const out = new Map<string, { element: PathElement; item: unknown }>();
  list.forEach((item, i) => {
    const element = itemElement(naming, item, i);
    if (!out.has(element.key)) out.set(element.key, { element, item });
  });
  return out;
}

/**
 * The fields `value` sets: its leaves, plus map entries that are not a struct's declared fields,
 * declared fields that are null or empty maps, and associative list items themselves.
 */
export function fieldSetOf(types: FieldTypes, type: FieldType, value: unknown): FieldSet {
  const set = new FieldSet();
  collectFields(types, type, value, [], set);
  return set;
}

/** Two items of one associative list with the same key (or value, in a set). */
export class DuplicateItemError extends Error {
  override readonly name = 'DuplicateItemError';
}

/**
 * Throws DuplicateItemError naming the first associative list of `value` that holds two items
 * with one key, e.g. `.spec.containers: duplicate entries for key [name="web"]`. An applied
 * configuration may not: merging it would drop one of them.
 */
export function checkNoDuplicateItems(types: FieldTypes, type: FieldType, value: unknown, path: PathElement[] = []): void {
  const shape = types.shapeOf(type, value);
  if (shape.kind === 'map') {
    for (const [name, v] of Object.entries(value as JsonMap)) {
      if (v !== undefined) checkNoDuplicateItems(types, shape.member(name).type, v, [...path, fieldElement(name)]);
    }
  } else if (shape.kind === 'list') {
    const seen = new Set<string>();
    (value as unknown[]).forEach((item, i) => {
      const element = itemElement(shape, item, i);
      if (seen.has(element.key)) {
        const what = element.kind === 'value' ? 'value' : 'key';
        throw new DuplicateItemError(`${pathString(path)}: duplicate entries for ${what} ${pathString([element])}`);
      }
      seen.add(element.key);
      checkNoDuplicateItems(types, shape.item, item, [...path, element]);
    });
  }
}

function collectFields(types: FieldTypes, type: FieldType, value: unknown, path: PathElement[], set: FieldSet): void {
  const shape = types.shapeOf(type, value);
  if (shape.kind === 'leaf') {
    set.insert(path);
  } else if (shape.kind === 'map') {
    for (const [name, v] of Object.entries(value as JsonMap)) {
      if (v === undefined) continue;
      const member = shape.member(name);
      const child = [...path, fieldElement(name)];
      collectFields(types, member.type, v, child, set);
      if (!member.declared || isEmptyMapOrNull(v)) set.insert(child);
    }
  } else {
    (value as unknown[]).forEach((item, i) => {
      const child = [...path, itemElement(shape, item, i)];
      collectFields(types, shape.item, item, child, set);
      set.insert(child);
    });
  }
}

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

/** What changed from `before` to `after` (either may be undefined: absent). */
export function compare(types: FieldTypes, type: FieldType, before: unknown, after: unknown): Comparison {
  const result = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareAt(types, type, before, after, [], result);
  return result;
}

function compareAt(types: FieldTypes, type: FieldType, before: unknown, after: unknown, path: PathElement[], out: Comparison): void {
  const shape = types.shapeOf(type, after === undefined ? before : after);
  const sameShape = before === undefined || after === undefined || types.shapeOf(type, before).kind === types.shapeOf(type, after).kind;
  const leaf = shape.kind === 'leaf' || !sameShape || (shape.kind === 'map' && isEmptyMapOrNull(before) && isEmptyMapOrNull(after));
  if (leaf) {
    if (before === undefined) out.added.insert(path);
    else if (after === undefined) out.removed.insert(path);
    else if (!jsonEqual(before, after)) out.modified.insert(path);
    return;
  }
  if (shape.kind === 'map') {
    const b = isPlainObject(before) ? before : {};
    const a = isPlainObject(after) ? after : {};
    const names = new Set([...Object.keys(b), ...Object.keys(a)]);
    for (const name of names) {
      if (b[name] === undefined && a[name] === undefined) continue;
      compareAt(types, shape.member(name).type, b[name], a[name], [...path, fieldElement(name)], out);
    }
  } else if (shape.kind === 'list') {
    const b = indexItems(shape, Array.isArray(before) ? before : []);
    const a = indexItems(shape, Array.isArray(after) ? after : []);
    for (const [k, { element, item }] of b) compareAt(types, shape.item, item, a.get(k)?.item, [...path, element], out);
    for (const [k, { element, item }] of a) if (!b.has(k)) compareAt(types, shape.item, undefined, item, [...path, element], out);
  }
  if (before === undefined) out.added.insert(path);
  else if (after === undefined) out.removed.insert(path);
}

/**
 * `config` laid over `live`: granular maps merge member by member, associative lists item by item
 * (items of both in the configuration's order, the live object's other items kept where they
 * were), anything else is replaced by the configuration's value. Returns new data; the inputs are
 * not modified.
 */
export function merge(types: FieldTypes, type: FieldType, live: unknown, config: unknown): unknown {
  if (config === undefined) return live;
  if (live === undefined) return structuredClone(config);
  const shape = types.shapeOf(type, config);
  if (shape.kind === 'map' && isPlainObject(live)) {
    const out: JsonMap = { ...live };
    for (const [name, v] of Object.entries(config as JsonMap)) {
      if (v !== undefined) out[name] = merge(types, shape.member(name).type, live[name], v);
    }
    return out;
  }
  if (shape.kind === 'list' && Array.isArray(live)) return mergeLists(types, shape, shape.item, live, config as unknown[]);
  return structuredClone(config);
}

/**
 * Merges associative lists the way upstream orders the result: walking both lists, an item of the
 * live list that the configuration does not name stays in place; items both name follow the
 * configuration's order; items only the configuration names come where it puts them.
 */
function mergeLists(types: FieldTypes, naming: ItemNaming, itemType: FieldType, live: unknown[], config: unknown[]): unknown[] {
  // Live items in order, duplicates included (a live object may hold them; the configuration may
  // not): those the configuration does not name stay, all of them; those it names become one.
  const liveOrder = live.map((item, i) => itemElement(naming, item, i).key);
  const liveItems = new Map<string, unknown>();
  liveOrder.forEach((k, i) => {
    if (!liveItems.has(k)) liveItems.set(k, live[i]);
  });
  const configItems = indexItems(naming, config);
  const configOrder = [...configItems.keys()];
  const shared = configOrder.filter((k) => liveItems.has(k));
  let nextShared = 0;
  const merged = new Set<string>();
  const out: unknown[] = [];
  const take = (k: string): void => {
    merged.add(k);
    out.push(merge(types, itemType, liveItems.get(k), configItems.get(k)?.item));
    if (shared[nextShared] === k) nextShared++;
  };
  let l = 0;
  let c = 0;
  while (l < liveOrder.length || c < configOrder.length) {
    if (l < liveOrder.length && c < configOrder.length) {
      const k = liveOrder[l]!;
      if (k === configOrder[c]) {
        take(k);
        l++;
        c++;
        continue;
      }
      // A shared item, but not the next one the configuration orders: it comes later.
      if (configItems.has(k) && shared[nextShared] !== undefined && shared[nextShared] !== k) {
        l++;
        continue;
      }
    }
    if (l < liveOrder.length) {
      const k = liveOrder[l]!;
      if (!configItems.has(k)) {
        out.push(structuredClone(live[l]));
        l++;
        continue;
      }
      if (merged.has(k)) {
        l++;
        continue;
      }
    }
    if (c < configOrder.length) take(configOrder[c++]!);
    else l++;
  }
  return out;
}

/**
 * Takes out of `value` (in place) the fields of `remove` that nobody in `keep` owns: a member is
 * removed whole unless `keep` owns something under it, in which case only what `keep` does not
 * own goes. Maps and lists left empty by a removal go too, unless owned. Key fields of a list item
 * that stays are kept.
 */
export function removeFields(types: FieldTypes, type: FieldType, value: unknown, remove: FieldSet, keep: FieldSet | undefined): void {
  const shape = types.shapeOf(type, value);
  if (shape.kind === 'map') {
    const map = value as JsonMap;
    for (const name of Object.keys(map)) {
      const element = fieldElement(name);
      const kept = keep?.under(element);
      const owned = !!kept && !kept.isEmpty();
      if (remove.hasMember(element) && !owned) {
        delete map[name];
        continue;
      }
      const sub = remove.under(element);
      if (!sub) continue;
      removeFields(types, shape.member(name).type, map[name], sub, kept);
      if (isEmptyContainer(map[name]) && !owned && !keep?.hasMember(element)) delete map[name];
    }
  } else if (shape.kind === 'list') {
    const list = value as unknown[];
    const survivors: unknown[] = [];
    list.forEach((item, i) => {
      const element = itemElement(shape, item, i);
      const kept = keep?.under(element);
      const owned = (!!kept && !kept.isEmpty()) || !!keep?.hasMember(element);
      if (remove.hasMember(element) && !owned) return;
      const sub = remove.under(element);
      if (sub) removeFields(types, shape.item, item, withoutKeyFields(sub, shape.keys), kept);
      survivors.push(item);
    });
    list.splice(0, list.length, ...survivors);
  }
}

function isEmptyContainer(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);
}

function withoutKeyFields(set: FieldSet, keys: readonly string[] | undefined): FieldSet {
  if (!keys || keys.length === 0) return set;
  return set.difference(FieldSet.of(keys.map((k) => [fieldElement(k)])));
}
