/**
 * The compact schema model: the facts of an OpenAPI v3 schema that the server acts on (types,
 * fields, patch and list metadata), without prose. The generator writes built-in definitions in
 * this shape; custom resource schemas are converted into it at run time.
 */
import type { GroupVersionKind } from '../catalog/resource-definition.js';

/** One schema node. A node with `ref` stands for the named definition and carries nothing else of its own type. */
export interface SchemaNode {
  /** Name of another definition, e.g. "io.k8s.api.core.v1.PodSpec". */
  readonly ref?: string;
  readonly type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  /** int32, int64, double, byte, date-time, int-or-string, ... */
  readonly format?: string;
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
  /** A schema for map values, or a boolean as in JSON Schema. */
  readonly additionalProperties?: SchemaNode | boolean;
  /** Alternatives (Quantity: string or number; IntOrString: integer or string). */
  readonly oneOf?: readonly SchemaNode[];
  /** x-kubernetes-int-or-string */
  readonly intOrString?: boolean;
  /** x-kubernetes-preserve-unknown-fields */
  readonly preserveUnknownFields?: boolean;
  /** x-kubernetes-embedded-resource */
  readonly embeddedResource?: boolean;
  /** x-kubernetes-patch-strategy, e.g. "merge" or "merge,retainKeys". */
  readonly patchStrategy?: string;
  /** x-kubernetes-patch-merge-key */
  readonly patchMergeKey?: string;
  /** x-kubernetes-list-type: atomic, set or map. */
  readonly listType?: 'atomic' | 'set' | 'map';
  /** x-kubernetes-list-map-keys */
  readonly listMapKeys?: readonly string[];
  /** x-kubernetes-map-type: atomic or granular. */
  readonly mapType?: 'atomic' | 'granular';
  /** x-kubernetes-unions, passed through as upstream writes it. */
  readonly unions?: readonly unknown[];
  /** x-kubernetes-group-version-kind: the kinds this definition is the schema of. */
  readonly gvk?: readonly GroupVersionKind[];
}

/** Definitions by name. */
export type SchemaDefinitions = ReadonlyMap<string, SchemaNode>;
