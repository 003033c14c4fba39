/**
 * How server-side apply sees a value of a schema: a leaf (a scalar, or an atomic map or list, owned
 * and replaced whole), a granular map (a struct's fields or a map's entries, each owned apart), or
 * an associative list (items owned apart, named by their key fields, or by their value in a set).
 * The rules are upstream's conversion of OpenAPI to its merge schema:
 * - x-kubernetes-list-type `map` (with x-kubernetes-list-map-keys) and `set` are associative,
 *   `atomic` is a leaf; without it, patch strategy `merge` makes a list associative on its merge
 *   key (a set without one); any other list is atomic.
 * - x-kubernetes-map-type `atomic` makes a map a leaf; maps are granular otherwise.
 * - RawExtension is a leaf; a value with no schema (or unknown fields kept by
 *   x-kubernetes-preserve-unknown-fields) is typed by its content: objects granular, lists atomic.
 */
import type { SchemaNode } from '../registry/schema/schema-node.js';
import type { SchemaSet } from '../registry/schema/schema-set.js';
import { isPlainObject } from '../util/plain-object.js';

/** A schema node (possibly a ref with list or map facts beside it), or no schema at all. */
export type FieldType = SchemaNode | undefined;

export type Shape =
  | { readonly kind: 'leaf' }
  | {
      readonly kind: 'map';
      /** The type of a member, and whether it is a declared field (a struct's) rather than a map entry. */
      readonly member: (name: string) => { readonly type: FieldType; readonly declared: boolean };
    }
  | {
      readonly kind: 'list';
      /** Key fields of an associative list of maps; undefined for a set (items named by value). */
      readonly keys: readonly string[] | undefined;
      /** The value a key field takes when an item leaves it out (its schema default). */
      readonly keyDefaults: ReadonlyMap<string, unknown>;
      readonly item: FieldType;
    };

const LEAF: Shape = { kind: 'leaf' };
const UNTYPED_MEMBER = { type: undefined, declared: false } as const;
const UNTYPED_MAP: Shape = { kind: 'map', member: () => UNTYPED_MEMBER };
const RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';
const NO_DEFAULTS: ReadonlyMap<string, unknown> = new Map();

/**
 * The key fields whose schema default is not their type's zero value. The generated schemas keep
 * no defaults; upstream's key fields default to "" or 0 but for these (upstream names a list item
 * that leaves them out by the default).
 */
const KEY_DEFAULTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'io.k8s.api.core.v1.ContainerPort': { protocol: 'TCP' },
  'io.k8s.api.core.v1.ServicePort': { protocol: 'TCP' },
};

/** The shapes of one SchemaSet's types, each node's worked out once. */
export class FieldTypes {
  readonly #schemas: SchemaSet;
  readonly #shapes = new WeakMap<SchemaNode, Shape>();
  readonly #roots = new Map<string, SchemaNode>();

  constructor(schemas: SchemaSet) {
    this.#schemas = schemas;
  }

  /** The root type of a kind's schema definition (undefined: typed by content). */
  root(definition: string | undefined): FieldType {
    if (definition === undefined || !this.#schemas.has(definition)) return undefined;
    let root = this.#roots.get(definition);
    if (!root) this.#roots.set(definition, (root = { ref: definition }));
    return root;
  }

  /** The shape of `value` as a value of `type`. A value that does not fit its schema is a leaf. */
  shapeOf(type: FieldType, value: unknown): Shape {
    if (type === undefined) return isPlainObject(value) ? UNTYPED_MAP : LEAF;
    let shape = this.#shapes.get(type);
    if (shape === undefined) {
      shape = this.#compute(type);
      this.#shapes.set(type, shape);
    }
    if (shape.kind === 'map' && !isPlainObject(value)) return LEAF;
    if (shape.kind === 'list' && !Array.isArray(value)) return LEAF;
    return shape;
  }

  #compute(node: SchemaNode): Shape {
    if (node.ref === RAW_EXTENSION) return LEAF;
    const resolved = this.#schemas.resolve(node);
    // List and map facts may sit beside a ref (on the field's node) or on the definition.
    const mapType = node.mapType ?? resolved.mapType;
    switch (resolved.type) {
      case 'object':
        return mapType === 'atomic' ? LEAF : this.#mapShape(resolved);
      case 'array':
        return this.#listShape(node, resolved);
      case undefined:
        // No type: arbitrary JSON (or an alternative of scalars, which is a leaf either way).
        return resolved.oneOf !== undefined || resolved.intOrString ? LEAF : UNTYPED_MAP;
      default:
        return LEAF;
    }
  }

  #mapShape(node: SchemaNode): Shape {
    const properties = node.properties ?? {};
    const additional = node.additionalProperties;
    const entryType: FieldType = typeof additional === 'object' ? additional : undefined;
    const open = additional !== undefined && additional !== false;
    if (Object.keys(properties).length === 0 && !open && !node.preserveUnknownFields) return UNTYPED_MAP;
    const declared = new Map<string, { readonly type: FieldType; readonly declared: boolean }>();
    for (const [name, field] of Object.entries(properties)) declared.set(name, { type: field, declared: true });
    const entry = open ? { type: entryType, declared: false } : UNTYPED_MEMBER;
    return { kind: 'map', member: (name) => declared.get(name) ?? entry };
  }

  #listShape(node: SchemaNode, resolved: SchemaNode): Shape {
    const item = resolved.items;
    const listType = node.listType ?? resolved.listType;
    if (listType !== undefined) {
      if (listType === 'map') return this.#keyedList(node.listMapKeys ?? resolved.listMapKeys ?? [], item);
      return listType === 'set' ? { kind: 'list', keys: undefined, keyDefaults: NO_DEFAULTS, item } : LEAF;
    }
    const strategy = node.patchStrategy ?? resolved.patchStrategy;
    if (strategy === 'merge' || strategy === 'merge,retainKeys') {
      const mergeKey = node.patchMergeKey ?? resolved.patchMergeKey;
      return mergeKey !== undefined ? this.#keyedList([mergeKey], item) : { kind: 'list', keys: undefined, keyDefaults: NO_DEFAULTS, item };
    }
    return LEAF;
  }

  #keyedList(keys: readonly string[], item: FieldType): Shape {
    const keyDefaults = new Map<string, unknown>();
    if (item !== undefined) {
      const itemNode = this.#schemas.resolve(item);
      const known = item.ref !== undefined ? KEY_DEFAULTS[item.ref] : undefined;
      for (const key of keys) {
        if (known && Object.hasOwn(known, key)) keyDefaults.set(key, known[key]);
        else {
          const type = itemNode.properties?.[key] ? this.#schemas.resolve(itemNode.properties[key]!).type : undefined;
          if (type === 'string') keyDefaults.set(key, '');
          else if (type === 'integer' || type === 'number') keyDefaults.set(key, 0);
        }
      }
    }
    return { kind: 'list', keys, keyDefaults, item };
  }
}
