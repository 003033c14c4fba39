/**
 * The texts of upstream's 400 responses for bodies that cannot be decoded, so that the handlers
 * answer in the same words (see golden-1.32/http/create-400-strict-unknown.txt).
 */
import type { GroupVersionKind } from '../catalog/resource-definition.js';

/**
 * `ConfigMap in version "v1" cannot be handled as a ConfigMap: <detail>`, upstream's wrapping of
 * every decode failure of a create/update/patch body.
 */
export function cannotBeHandledMessage(gvk: Pick<GroupVersionKind, 'version' | 'kind'>, detail: string): string {
  return `${gvk.kind} in version ${JSON.stringify(gvk.version)} cannot be handled as a ${gvk.kind}: ${detail}`;
}

/**
 * `strict decoding error: unknown field "metadata.bogus", unknown field "extra", duplicate field "data"`.
 * Upstream lists both kinds in document order; callers that know duplicates pass them already merged
 * in that order, or after the unknown fields as here.
 */
export function strictDecodingDetail(unknownFields: readonly string[], duplicateFields: readonly string[] = []): string {
  const items = [
    ...unknownFields.map((path) => `unknown field ${JSON.stringify(path)}`),
    ...duplicateFields.map((path) => `duplicate field ${JSON.stringify(path)}`),
  ];
  return `strict decoding error: ${items.join(', ')}`;
}

/** The text of one Warning header item for fieldValidation=Warn: `unknown field "extra"`. */
export function unknownFieldWarning(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}
