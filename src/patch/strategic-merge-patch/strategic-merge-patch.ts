/**
 * The strategic merge patch applier (`application/strategic-merge-patch+json`), as upstream's patch
 * handler applies it to built-in types: the body is decoded into a map (strictly, reporting
 * duplicate fields, unless fieldValidation is Ignore), merged into a copy of the live object by the
 * patch metadata of the type's schema, and handed back for the caller's schema check, which reports
 * and drops unknown fields as it does for every patch kind.
 *
 * The applier is built per resource type, because the merge needs that type's schema:
 *
 *   patchAppliers({ [PatchKind.StrategicMergePatch]: strategicMergePatchApplier(schemas, definition.schema) })
 */
import type { SchemaSet } from '../../registry/schema/schema-set.js';
import { cannotUnmarshal } from '../../serialization/go-json-errors.js';
import { duplicateFieldMessage } from '../../serialization/json-codec.js';
import { JsonSyntaxError, decodeJson } from '../../serialization/json-decode.js';
import { invalidPatch } from '../patch-errors.js';
import type { PatchApplier, PatchRequest, PatchResult } from '../patch-request.js';
import { isJsonMap, type JsonMap } from './go-value.js';
import { mergeMap } from './merge-map.js';
import { PatchSchema } from './patch-schema.js';

interface DecodedPatch {
  /** null for a body of `null`, which upstream decodes to a nil map: a patch that changes nothing. */
  readonly patch: JsonMap | null;
  readonly strictErrors: readonly string[];
}

/**
 * Decodes the body as upstream does into `map[string]interface{}`: 400 with Go's message for text
 * that is not JSON and for JSON that is not an object (or null).
 */
function decodePatch(request: PatchRequest): DecodedPatch {
  let decoded;
  try {
    decoded = decodeJson(request.body);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw invalidPatch(err.message);
    throw err;
  }
  const value = decoded.value;
  if (value !== null && !isJsonMap(value)) throw invalidPatch(cannotUnmarshal(value, 'map[string]interface {}'));
  const strict = request.fieldValidation !== 'Ignore';
  return { patch: value, strictErrors: strict ? decoded.duplicateFields.map(duplicateFieldMessage) : [] };
}

/**
 * Applies a strategic merge patch to `request.current` (not modified) with the patch metadata of
 * `schema`. Throws ApiError: 400 for a body that is not a JSON object and for malformed directives,
 * 422 for lists of lists, 500 (no reason) for the merge errors upstream leaves unclassified, such
 * as a list element without its merge key.
 */
export function applyStrategicMergePatch(request: PatchRequest, schema: PatchSchema): PatchResult {
  const { patch, strictErrors } = decodePatch(request);
  const document = structuredClone(request.current) as JsonMap;
  return { value: patch === null ? document : mergeMap(document, patch, schema), strictErrors };
}

/**
 * The strategic merge patch applier for objects whose schema is definition `definitionName` of
 * `schemas` (a ResourceDefinition's `schema`, e.g. "io.k8s.api.apps.v1.Deployment"). Building it is
 * cheap: it may be built per request.
 * @throws Error when `schemas` has no such definition (a wiring mistake).
 */
export function strategicMergePatchApplier(schemas: SchemaSet, definitionName: string): PatchApplier {
  const schema = PatchSchema.forDefinition(schemas, definitionName);
  return (request) => applyStrategicMergePatch(request, schema);
}
