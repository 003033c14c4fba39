/**
 * Patch kinds to their appliers: the seam where strategic merge patch and server-side apply plug
 * in. They need the type's schema (patch strategies, list keys, field ownership), so their
 * appliers are built per resource type and passed in; JSON Patch and merge patch need nothing.
 */
import { PatchKind } from '../serialization/patch-content-type.js';
import { unsupportedMediaTypeError } from '../serialization/content-type.js';
import { applyJsonPatch } from './json-patch.js';
import { applyMergePatch } from './merge-patch.js';
import type { PatchApplier, PatchRequest, PatchResult } from './patch-request.js';

export type PatchAppliers = ReadonlyMap<PatchKind, PatchApplier>;

/**
 * JSON Patch and JSON merge patch, plus `extra` appliers for kinds that need a schema
 * (strategic merge patch, apply). A kind in `extra` overrides the default.
 */
export function patchAppliers(extra: Partial<Record<PatchKind, PatchApplier>> = {}): PatchAppliers {
  const appliers = new Map<PatchKind, PatchApplier>([
    [PatchKind.JsonPatch, applyJsonPatch],
    [PatchKind.MergePatch, applyMergePatch],
  ]);
  for (const [kind, applier] of Object.entries(extra) as [PatchKind, PatchApplier | undefined][]) {
    if (applier !== undefined) appliers.set(kind, applier);
  }
  return appliers;
}

/**
 * Applies a patch of `kind`. Throws a 415 ApiError listing the kinds on offer when `kind` has no
 * applier; otherwise whatever the applier throws (400, 413, 422).
 */
export function applyPatch(kind: PatchKind, request: PatchRequest, appliers: PatchAppliers): PatchResult {
  const applier = appliers.get(kind);
  if (applier === undefined) throw unsupportedMediaTypeError([...appliers.keys()]);
  return applier(request);
}
