/**
 * The `schemaFields` dependency of the strategy table computed from a schema set: the top-level
 * property names of a kind's schema, which decide whether the type has a spec and a status.
 */
import type { ResourceDefinition } from '../catalog/resource-definition.js';
import type { SchemaSet } from '../schema/schema-set.js';

/** A `schemaFields` function reading `schemas`; a type without a schema has no fields. */
export function schemaFieldsFrom(schemas: SchemaSet): (definition: ResourceDefinition) => ReadonlySet<string> {
  return (definition) => {
    const node = definition.schema === undefined ? undefined : schemas.definition(definition.schema);
    if (node === undefined) return new Set();
    return new Set(Object.keys(schemas.resolve(node).properties ?? {}));
  };
}
