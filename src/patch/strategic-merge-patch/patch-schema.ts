/**
 * Patch metadata looked up the way upstream's server looks it up. Upstream reads the Go struct tags
 * `patchStrategy` and `patchMergeKey` of the versioned type (PatchMetaFromStruct); the generated
 * schema carries the same facts as `x-kubernetes-patch-strategy` and `x-kubernetes-patch-merge-key`
 * on the field's own node (beside its `ref`), so each lookup reads the unresolved property node.
 *
 * `x-kubernetes-list-type: map` is not consulted: upstream's strategic merge ignores it, so a list
 * with list-map-keys but no patch strategy (e.g. ResourceRequirements.claims) is replaced whole.
 *
 * A lookup fails where upstream's fails on its Go types: a field the struct does not have, a map
 * type (`map[string]X` holds no patch metadata), a non-list where a list is needed. Those failures
 * surface only for directives naming such fields, or for maps and lists merged inside map-typed
 * or opaque (RawExtension, JSON) values; the messages are upstream's, as 500s.
 */
import { goQuote } from '../../serialization/go-format.js';
import type { SchemaSet } from '../../registry/schema/schema-set.js';
import type { SchemaNode } from '../../registry/schema/schema-node.js';
import { mergeFailure } from './smp-errors.js';

/** A field's patch strategies (comma-split, possibly empty) and merge key ("" for none). */
export interface PatchMeta {
  readonly strategies: readonly string[];
  readonly mergeKey: string;
}

export interface FieldPatchInfo {
  /** The field's type: for a list, the type of its elements. */
  readonly schema: PatchSchema;
  readonly meta: PatchMeta;
}

const MAX_REF_DEPTH = 32;
const BYTE_ELEMENT: SchemaNode = { type: 'integer', format: 'uint8' };

/** reflect's Kind name of the Go type a schema node stands for. */
function goKindOf(node: SchemaNode): string {
  switch (node.type) {
    case 'array':
      return 'slice';
    case 'object':
      return node.properties === undefined && node.additionalProperties !== undefined && node.additionalProperties !== false ? 'map' : 'struct';
    case 'string':
      if (node.format === 'byte') return 'slice';
      return node.format === 'date-time' ? 'struct' : 'string';
    case 'integer':
      return node.format === 'int32' || node.format === 'uint8' ? node.format : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    default:
      // Quantity, IntOrString and apiextensions JSON are Go structs with their own JSON form.
      return 'struct';
  }
}

/** The Go type of one value in the merge, and the lookups upstream performs on it. */
export class PatchSchema {
  readonly #schemas: SchemaSet;
  readonly #node: SchemaNode;
  /** The Go type name (a definition's last segment), "" for an inline type. */
  readonly #name: string;

  private constructor(schemas: SchemaSet, node: SchemaNode, name: string) {
    this.#schemas = schemas;
    this.#node = node;
    this.#name = name;
  }

  /**
   * The schema of a named definition (e.g. "io.k8s.api.apps.v1.Deployment").
   * @throws Error when the set has no such definition: a wiring mistake, not a client's.
   */
  static forDefinition(schemas: SchemaSet, definitionName: string): PatchSchema {
    if (!schemas.has(definitionName)) throw new Error(`strategic merge patch: no schema definition ${definitionName}`);
    return PatchSchema.#at(schemas, { ref: definitionName });
  }

  static #at(schemas: SchemaSet, node: SchemaNode): PatchSchema {
    let current = node;
    let name = '';
    for (let depth = 0; current.ref !== undefined; depth++) {
      const target = schemas.definition(current.ref);
      if (target === undefined || depth > MAX_REF_DEPTH) throw new Error(`schema: cannot resolve ${current.ref}`);
      name = current.ref.slice(current.ref.lastIndexOf('.') + 1);
      current = target;
    }
    return new PatchSchema(schemas, current, name);
  }

  /** reflect's Kind of this type (`struct`, `map`, `slice`, `string`, ...), as messages print it. */
  get kind(): string {
    return goKindOf(this.#node);
  }

  /**
   * The type and patch metadata of field `key` of this struct (upstream's
   * LookupPatchMetadataForStruct). Names match exactly, else case-insensitively, as Go's JSON does.
   * Throws 500 when this is not a struct or has no such field.
   */
  forMap(key: string): FieldPatchInfo {
    if (this.kind !== 'struct') throw mergeFailure(`merging an object in json but data type is not struct, instead is: ${this.kind}`);
    const field = this.#field(key);
    if (field === undefined) throw mergeFailure(`unable to find api field in struct ${this.#name} for the json field ${goQuote(key)}`);
    const meta: PatchMeta = {
      strategies: field.patchStrategy === undefined ? [] : field.patchStrategy.split(','),
      mergeKey: field.patchMergeKey ?? '',
    };
    return { schema: PatchSchema.#at(this.#schemas, field), meta };
  }

  /**
   * The element type and patch metadata of list field `key` (upstream's
   * LookupPatchMetadataForSlice). Throws 500 as {@link forMap} does, and when the field is not a
   * list or is a list of lists.
   */
  forList(key: string): FieldPatchInfo {
    const { schema: field, meta } = this.forMap(key);
    if (field.kind !== 'slice') throw mergeFailure(`expected slice or array type, but got: ${this.kind}`);
    const items = field.#node.type === 'string' ? BYTE_ELEMENT : (field.#node.items ?? {});
    const element = PatchSchema.#at(this.#schemas, items);
    if (element.kind === 'slice') throw mergeFailure('unexpected slice of slice');
    return { schema: element, meta };
  }

  #field(key: string): SchemaNode | undefined {
    const properties = this.#node.properties ?? {};
    if (Object.hasOwn(properties, key)) return properties[key];
    const folded = key.toLowerCase();
    const name = Object.keys(properties).find((p) => p.toLowerCase() === folded);
    return name === undefined ? undefined : properties[name];
  }
}
