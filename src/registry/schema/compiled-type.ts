/**
 * Schemas precompiled for the decoder walk: refs resolved to shared objects, fields in Maps, and
 * every node classified once into how upstream's Go decoder treats it. Compiling happens lazily,
 * one definition (and what it reaches) at a time, and is memoized by the compiler instance.
 */
import type { SchemaNode } from './schema-node.js';
import type { SchemaSet } from './schema-set.js';

/** A struct: known fields, everything else is an unknown field (unless preserved). */
export interface StructType {
  readonly kind: 'struct';
  /** Go's name for the type in messages, e.g. "v1.PodSpec". */
  readonly goType: string;
  /** Go's struct name, e.g. "PodSpec", used as `Go struct field PodSpec.spec.x`. */
  readonly structName: string;
  readonly fields: ReadonlyMap<string, CompiledType>;
  readonly preserveUnknownFields: boolean;
}

export interface MapType { readonly kind: 'map'; readonly goType: string; readonly values: CompiledType }
export interface ArrayType { readonly kind: 'array'; readonly goType: string; readonly items: CompiledType }
export interface ScalarType {
  readonly kind: 'string' | 'bool' | 'float' | 'bytes';
  readonly goType: string;
}
export interface IntegerType { readonly kind: 'int'; readonly goType: string; readonly min: number; readonly max: number }
/**
 * Types with their own JSON decoding upstream: IntOrString, Quantity, Time, MicroTime; and `any`
 * for raw JSON holders (RawExtension, FieldsV1, schemaless nodes) that accept every value.
 */
export interface SpecialType { readonly kind: 'int-or-string' | 'quantity' | 'time' | 'micro-time' | 'any'; readonly goType: string }

export type CompiledType = StructType | MapType | ArrayType | ScalarType | IntegerType | SpecialType;

// Definitions whose Go types decode themselves; see k8s.io/apimachinery (intstr, resource, meta/v1, runtime).
const SPECIAL_DEFINITIONS: Readonly<Record<string, SpecialType>> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { kind: 'int-or-string', goType: 'intstr.IntOrString' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { kind: 'quantity', goType: 'resource.Quantity' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { kind: 'time', goType: 'v1.Time' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { kind: 'micro-time', goType: 'v1.MicroTime' },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': { kind: 'any', goType: 'runtime.RawExtension' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': { kind: 'any', goType: 'v1.FieldsV1' },
};

const ANY: SpecialType = { kind: 'any', goType: 'interface {}' };
const INT_OR_STRING: SpecialType = SPECIAL_DEFINITIONS['io.k8s.apimachinery.pkg.util.intstr.IntOrString']!;
const INT32: IntegerType = { kind: 'int', goType: 'int32', min: -(2 ** 31), max: 2 ** 31 - 1 };
const INT64: IntegerType = { kind: 'int', goType: 'int64', min: -(2 ** 63), max: 2 ** 63 - 1 };
const INT: IntegerType = { ...INT64, goType: 'int' };

/** Go's package-qualified name of a definition: io.k8s.api.core.v1.PodSpec → v1.PodSpec. */
export function goTypeName(definition: string): string {
  const parts = definition.split('.');
  return parts.length >= 2 ? `${parts[parts.length - 2]}.${parts[parts.length - 1]}` : definition;
}

export class SchemaCompiler {
  readonly #schemas: SchemaSet;
  readonly #byDefinition = new Map<string, CompiledType>();

  constructor(schemas: SchemaSet) {
    this.#schemas = schemas;
  }

  /** The compiled type of a definition, or undefined when the set has no such definition. */
  definition(name: string): CompiledType | undefined {
    const cached = this.#byDefinition.get(name);
    if (cached) return cached;
    const node = this.#schemas.definition(name);
    if (!node) return undefined;
    return this.#compileDefinition(name, node);
  }

  #compileDefinition(name: string, node: SchemaNode): CompiledType {
    const special = SPECIAL_DEFINITIONS[name];
    if (special) {
      this.#byDefinition.set(name, special);
      return special;
    }
    if (isStruct(node)) {
      // Registered before its fields are compiled, so recursive definitions (JSONSchemaProps) end.
      const fields = new Map<string, CompiledType>();
      const struct: StructType = {
        kind: 'struct',
        goType: goTypeName(name),
        structName: name.slice(name.lastIndexOf('.') + 1),
        fields,
        preserveUnknownFields: node.preserveUnknownFields === true,
      };
      this.#byDefinition.set(name, struct);
      this.#fillFields(fields, node, struct.structName);
      return struct;
    }
    const compiled = this.#compileNode(node, goTypeName(name));
    this.#byDefinition.set(name, compiled);
    return compiled;
  }

  #fillFields(fields: Map<string, CompiledType>, node: SchemaNode, structName: string): void {
    for (const [field, schema] of Object.entries(node.properties ?? {})) fields.set(field, this.#compileNode(schema, structName));
    if (node.embeddedResource) {
      for (const field of ['apiVersion', 'kind']) if (!fields.has(field)) fields.set(field, { kind: 'string', goType: 'string' });
      if (!fields.has('metadata')) fields.set('metadata', this.definition('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta') ?? ANY);
    }
  }

  /** `context` names inline objects (custom resource schemas), which have no Go type of their own. */
  #compileNode(node: SchemaNode, context: string): CompiledType {
    if (node.ref !== undefined) return this.definition(node.ref) ?? ANY;
    if (node.intOrString || node.format === 'int-or-string') return INT_OR_STRING;
    switch (node.type) {
      case 'string':
        return node.format === 'byte' ? { kind: 'bytes', goType: '[]uint8' } : { kind: 'string', goType: 'string' };
      case 'boolean':
        return { kind: 'bool', goType: 'bool' };
      case 'number':
        return { kind: 'float', goType: 'float64' };
      case 'integer':
        return node.format === 'int32' ? INT32 : node.format === 'int64' ? INT64 : INT;
      case 'array': {
        const items = node.items ? this.#compileNode(node.items, context) : ANY;
        return { kind: 'array', goType: `[]${items.goType}`, items };
      }
      case 'object':
        return this.#compileObject(node, context);
      default:
        return node.preserveUnknownFields || !node.properties ? ANY : this.#compileObject(node, context);
    }
  }

  #compileObject(node: SchemaNode, context: string): CompiledType {
    const additional = node.additionalProperties;
    if (!node.properties && typeof additional === 'object') {
      const values = this.#compileNode(additional, context);
      return { kind: 'map', goType: `map[string]${values.goType}`, values };
    }
    if (!node.properties && (additional === true || node.preserveUnknownFields)) return ANY;
    const fields = new Map<string, CompiledType>();
    const struct: StructType = { kind: 'struct', goType: context, structName: context, fields, preserveUnknownFields: node.preserveUnknownFields === true };
    this.#fillFields(fields, node, context);
    return struct;
  }
}

/** A definition that Go decodes as a struct: an object with fields, or an empty struct. */
function isStruct(node: SchemaNode): boolean {
  return node.type === 'object' && (node.properties !== undefined || node.additionalProperties === undefined);
}
