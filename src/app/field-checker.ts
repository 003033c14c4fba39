/**
 * Adapts the schema walker to the endpoint layer's FieldChecker: unknown fields (pruned) and the
 * decoder's fatal type error, per resource definition.
 */
import type { FieldChecker } from '../endpoints/object-body.js';
import type { KubeObject } from '../registry/object.js';
import type { ObjectChecker } from '../registry/schema/object-checker.js';

export function schemaFieldChecker(checker: ObjectChecker): FieldChecker {
  return (definition, object) => {
    if (!definition.schema) return { object, unknownFields: [], typeErrors: [] };
    const result = checker.checkObject(definition.schema, object);
    return {
      object: result.pruned as KubeObject,
      unknownFields: result.unknownFields,
      typeErrors: result.decodeError !== undefined ? [result.decodeError] : [],
    };
  };
}
