/**
 * The patch kinds of each built-in type: JSON Patch and merge patch for all, strategic merge patch
 * driven by the type's schema. Built once per schema and kept.
 */
import { patchAppliers, type PatchAppliers } from '../patch/patchers.js';
import { strategicMergePatchApplier } from '../patch/strategic-merge-patch/strategic-merge-patch.js';
import type { SchemaSet } from '../registry/schema/schema-set.js';
import { PatchKind } from '../serialization/patch-content-type.js';

export function patchersBySchema(schemas: SchemaSet): (schema: string | undefined) => PatchAppliers {
  const generic = patchAppliers();
  const bySchema = new Map<string, PatchAppliers>();
  return (schema) => {
    if (schema === undefined || !schemas.has(schema)) return generic;
    let appliers = bySchema.get(schema);
    if (!appliers) {
      appliers = patchAppliers({ [PatchKind.StrategicMergePatch]: strategicMergePatchApplier(schemas, schema) });
      bySchema.set(schema, appliers);
    }
    return appliers;
  };
}
