/**
 * The kind of a PATCH, named by its Content-Type. Upstream compares the type before any `;`
 * exactly (no case folding) against the kinds the endpoint accepts, and answers anything else with
 * 415 listing them. Custom resources accept no strategic merge patch; apply in CBOR only with the
 * CBOR feature enabled.
 */
import { unsupportedMediaTypeError } from './content-type.js';

export const PatchKind = {
  JsonPatch: 'application/json-patch+json',
  MergePatch: 'application/merge-patch+json',
  StrategicMergePatch: 'application/strategic-merge-patch+json',
  ApplyYaml: 'application/apply-patch+yaml',
  ApplyCbor: 'application/apply-patch+cbor',
} as const;

export type PatchKind = (typeof PatchKind)[keyof typeof PatchKind];

/** Kinds accepted for built-in types, in upstream's order (used in the 415 message). */
export const BUILT_IN_PATCH_KINDS: readonly PatchKind[] = [
  PatchKind.JsonPatch,
  PatchKind.MergePatch,
  PatchKind.StrategicMergePatch,
  PatchKind.ApplyYaml,
];

/** Kinds accepted for custom resources. */
export const CUSTOM_RESOURCE_PATCH_KINDS: readonly PatchKind[] = [PatchKind.JsonPatch, PatchKind.MergePatch, PatchKind.ApplyYaml];

/**
 * The patch kind a Content-Type names, if `accepted` holds it. Throws a 415 ApiError listing
 * `accepted` otherwise.
 */
export function patchKindOf(contentType: string | undefined, accepted: readonly PatchKind[]): PatchKind {
  let type = contentType ?? '';
  const semicolon = type.indexOf(';');
  if (semicolon > 0) type = type.slice(0, semicolon);
  const kind = accepted.find((k) => k === type);
  if (kind === undefined) throw unsupportedMediaTypeError(accepted);
  return kind;
}
