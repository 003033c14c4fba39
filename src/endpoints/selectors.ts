/**
 * The labelSelector and fieldSelector of a list or watch, as one predicate over objects.
 */
import type { ResourceDefinition } from '../registry/catalog/resource-definition.js';
import { metaOf, type KubeObject } from '../registry/object.js';
import { fieldValue, selectableFields } from '../selection/field-selectable.js';
import { parseFieldSelector, type FieldSelector } from '../selection/field-selector.js';
import { parseLabelSelector } from '../selection/label-selector.js';

export interface Selection {
  /** Undefined when the request selects everything. */
  readonly filter: ((object: KubeObject) => boolean) | undefined;
  readonly fields: FieldSelector;
}

/** Parses both selectors; 400 BadRequest for malformed ones or unsupported fields. */
export function selectionOf(query: URLSearchParams, definition: ResourceDefinition): Selection {
  const labels = parseLabelSelector(query.get('labelSelector') ?? '');
  const fields = parseFieldSelector(query.get('fieldSelector') ?? '', selectableFields(definition.resource, definition.group, definition.namespaced));
  if (labels.empty && fields.empty) return { filter: undefined, fields };
  const filter = (object: KubeObject): boolean => {
    const meta = metaOf(object);
    if (!labels.matches(meta.labels)) return false;
    return fields.matches((field) => {
      if (field === 'metadata.name') return meta.name;
      if (field === 'metadata.namespace') return meta.namespace;
      return fieldValue(object, field);
    });
  };
  return { filter, fields };
}
