/**
 * The field manager of each built-in type, typed by its schema. The types' shapes are worked out
 * on first use, so startup does not pay for them.
 */
import { FieldManager } from '../apply/field-manager.js';
import { FieldTypes } from '../apply/field-types.js';
import { apiVersionOf, type ResourceDefinition } from '../registry/catalog/resource-definition.js';
import type { SchemaSet } from '../registry/schema/schema-set.js';

export function fieldManagers(schemas: SchemaSet): (definition: ResourceDefinition) => FieldManager {
  const types = new FieldTypes(schemas);
  return (d) => new FieldManager({ types, schema: d.schema, apiVersion: apiVersionOf(d), hasStatus: Object.hasOwn(d.subresources, 'status') });
}
