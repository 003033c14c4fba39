/**
 * The patch kinds of each built-in type: JSON Patch and merge patch for all, strategic merge patch
 * driven by the type's schema. Strategic merge patch is loaded on the first request that needs it
 * (startup does not pay for it); each type's appliers are built once and kept.
 */
import { patchAppliers, type PatchAppliers } from '../patch/patchers.js';
import type { SchemaSet } from '../registry/schema/schema-set.js';
import { PatchKind } from '../serialization/patch-content-type.js';

export function patchersBySchema(schemas: SchemaSet): (schema: string | undefined) => Promise<PatchAppliers> {
  const generic = patchAppliers();
  const bySchema = new Map<string, PatchAppliers>();
  return async (schema) => {
    if (schema === undefined || !schemas.has(schema)) return generic;
    let appliers = bySchema.get(schema);
    if (!appliers) {
      const { strategicMergePatchApplier } = await import('../patch/strategic-merge-patch/strategic-merge-patch.js');
      appliers = patchAppliers({ [PatchKind.StrategicMergePatch]: strategicMergePatchApplier(schemas, schema) });
      bySchema.set(schema, appliers);
    }
    return appliers;
  };
}
