/**
 * One step of a field path, as server-side apply names fields: a field of a map or struct, an item
 * of an associative list by its key fields, an item of a set by its value, or an item of an atomic
 * list by its index. Each step has the compact form managedFields store (`f:name`,
 * `k:{"name":"web"}`, `v:"a"`, `i:0`), which also serves as its identity here, and the readable
 * form conflict messages print (`.name`, `[name="web"]`, `[="a"]`, `[0]`).
 */
import { escapeLikeGo } from '../serialization/json-encode.js';
import { compareCodeUnits } from '../util/compare.js';

/** The key fields of an associative list item, sorted by name. */
export type KeyFields = ReadonlyArray<readonly [string, unknown]>;

/** A path element; `key` is its compact form, computed once. */
export type PathElement =
  | { readonly kind: 'field'; readonly name: string; readonly key: string }
  | { readonly kind: 'key'; readonly fields: KeyFields; readonly key: string }
  | { readonly kind: 'value'; readonly value: unknown; readonly key: string }
  | { readonly kind: 'index'; readonly index: number; readonly key: string };

export type FieldPath = readonly PathElement[];

export function fieldElement(name: string): PathElement {
  return { kind: 'field', name, key: `f:${name}` };
}

/** A key element from an item's key fields (any order; they are sorted here). */
export function keyElement(fields: Iterable<readonly [string, unknown]>): PathElement {
  const sorted = [...fields].sort((a, b) => compareCodeUnits(a[0], b[0]));
  return { kind: 'key', fields: sorted, key: `k:${json(Object.fromEntries(sorted))}` };
}

export function valueElement(value: unknown): PathElement {
  return { kind: 'value', value, key: `v:${json(value)}` };
}

export function indexElement(index: number): PathElement {
  return { kind: 'index', index, key: `i:${index}` };
}

/** Rank of a JSON value's type in the total order of values: numbers, strings, booleans, lists, maps, null. */
function typeRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (typeof v === 'object' && v !== null) return 4;
  return 5;
}

/** A total order of JSON values (numbers by value, strings bytewise, false before true, lists and maps item by item). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return (a as number) - (b as number);
    case 1:
      return compareCodeUnits(a as string, b as string);
    case 2:
      return Number(a) - Number(b);
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; i < la.length && i < lb.length; i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return la.length - lb.length;
    }
    case 4: {
      const ka = Object.keys(a as object).sort();
      const kb = Object.keys(b as object).sort();
      for (let i = 0; i < ka.length && i < kb.length; i++) {
        const c = compareCodeUnits(ka[i]!, kb[i]!) || compareValues((a as Record<string, unknown>)[ka[i]!], (b as Record<string, unknown>)[kb[i]!]);
        if (c !== 0) return c;
      }
      return ka.length - kb.length;
    }
    default:
      return 0;
  }
}

const KIND_RANK = { field: 0, key: 1, value: 2, index: 3 } as const;

/** The order managedFields list elements in: fields by name, then keys, values, indexes. */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_RANK[a.kind] - KIND_RANK[b.kind];
  switch (a.kind) {
    case 'field':
      return compareCodeUnits(a.name, (b as typeof a).name);
    case 'key': {
      const fb = (b as typeof a).fields;
      for (let i = 0; i < a.fields.length && i < fb.length; i++) {
        const c = compareCodeUnits(a.fields[i]![0], fb[i]![0]) || compareValues(a.fields[i]![1], fb[i]![1]);
        if (c !== 0) return c;
      }
      return a.fields.length - fb.length;
    }
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index':
      return a.index - (b as typeof a).index;
  }
}

function json(value: unknown): string {
  return escapeLikeGo(JSON.stringify(value));
}

/** Parses a compact form; undefined when it is not one. */
export function parseElementKey(key: string): PathElement | undefined {
  const rest = key.slice(2);
  try {
    switch (key.slice(0, 2)) {
      case 'f:':
        return fieldElement(rest);
      case 'k:': {
        const fields = JSON.parse(rest) as unknown;
        if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
        return keyElement(Object.entries(fields));
      }
      case 'v:':
        return valueElement(JSON.parse(rest));
      case 'i:':
        return /^\d+$/.test(rest) ? indexElement(Number(rest)) : undefined;
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

/** A value as conflict messages print it: strings quoted, numbers and booleans bare. */
function readableValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(readableValue).join(',')}]`;
  if (typeof v === 'object' && v !== null) return Object.entries(v).map(([k, x]) => `${k}=${readableValue(x)}`).join('');
  return String(v);
}

/** The readable form of a path, e.g. `.spec.containers[name="web"].image`. */
export function pathString(path: FieldPath): string {
  let out = '';
  for (const e of path) {
    switch (e.kind) {
      case 'field':
        out += `.${e.name}`;
        break;
      case 'key':
        out += `[${e.fields.map(([k, v]) => `${k}=${readableValue(v)}`).join(',')}]`;
        break;
      case 'value':
        out += `[=${readableValue(e.value)}]`;
        break;
      case 'index':
        out += `[${e.index}]`;
        break;
    }
  }
  return out;
}
