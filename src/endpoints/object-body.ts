/**
 * Decoding the object a create or update sends: read, decode with the codec its Content-Type
 * names, check its group/version, and report unknown and duplicate fields per the fieldValidation
 * level (rule 10). Unknown fields are dropped from the object.
 */
import type { ResourceDefinition } from '../registry/catalog/resource-definition.js';
import type { KubeObject } from '../registry/object.js';
import type { RequestContext } from '../server/request-context.js';
import type { CodecRegistry } from '../serialization/codec.js';
import { requestCodec } from '../serialization/content-type.js';
import { apiVersionMismatchError, decodeError, decodeObject, strictDecodingError, unknownFieldMessage, type GroupVersionKind } from '../serialization/object-decode.js';
import { fieldValidationOf, writeOptionsKind, type FieldValidation } from './query-flags.js';
import { contentTypeOf, readBody } from './request-body.js';

/** What a schema check found: unknown field paths (already removed from `object`) and type errors. */
export interface FieldCheckResult {
  readonly object: KubeObject;
  readonly unknownFields: readonly string[];
  /** The decoder's fatal error (a value of the wrong type): 400 whatever the level. */
  readonly typeErrors: readonly string[];
}

/** Checks an object against its type's schema. */
export type FieldChecker = (definition: ResourceDefinition, object: KubeObject) => FieldCheckResult;

export interface BodyDecoding {
  readonly codecs: CodecRegistry;
  readonly checkFields: FieldChecker | undefined;
}

/**
 * Decodes an object of `definition`'s kind. Throws 400 for malformed bodies, a wrong group/version
 * or kind, fatal type errors, and (Strict) unknown or duplicate fields; 413 for oversize bodies;
 * 415 for unknown media types. Warn adds one Warning per problem.
 */
export async function decodeObjectBody(ctx: RequestContext, definition: ResourceDefinition, decoding: BodyDecoding): Promise<KubeObject> {
  const level = fieldValidationOf(ctx.query, writeOptionsKind(ctx.info.verb));
  const codec = requestCodec(contentTypeOf(ctx), decoding.codecs);
  const body = await readBody(ctx);
  const target: GroupVersionKind = { group: definition.group, version: definition.version, kind: definition.kind };
  const { object, gvk, strictErrors } = decodeObject(body, codec, { kind: definition.kind, defaults: target });
  if (gvk.group !== target.group || gvk.version !== target.version) throw apiVersionMismatchError(gvk, target);
  if (gvk.kind !== target.kind) {
    throw decodeError(`the kind in the data (${gvk.kind}) does not match the expected kind (${target.kind})`, target.kind, body, gvk);
  }
  ctx.audit?.requestObject(object);
  return checkedObject(ctx, definition, object as KubeObject, strictErrors, level, decoding.checkFields, gvk);
}

/**
 * Applies the schema check and the fieldValidation level to a decoded (or patched) object:
 * type errors fail with 400; unknown and duplicate fields fail (Strict), warn (Warn) or pass
 * silently (Ignore). Returns the object without unknown fields.
 */
export function checkedObject(
  ctx: RequestContext,
  definition: ResourceDefinition,
  object: KubeObject,
  strictErrors: readonly string[],
  level: FieldValidation,
  checkFields: FieldChecker | undefined,
  gvk: GroupVersionKind = { group: definition.group, version: definition.version, kind: definition.kind },
): KubeObject {
  const result = checkFields ? checkFields(definition, object) : { object, unknownFields: [], typeErrors: [] };
  if (result.typeErrors.length > 0) {
    throw decodeError(result.typeErrors[0]!, definition.kind, new Uint8Array(), gvk);
  }
  const problems = [...result.unknownFields.map(unknownFieldMessage), ...strictErrors];
  if (problems.length > 0 && level === 'Strict') throw strictDecodingError(gvk, definition.kind, problems);
  if (level === 'Warn') addWarnings(ctx, problems);
  return result.object;
}

/** Adds each message as a Warning header value (`299 - "..."`), as upstream warns of unknown and duplicate fields. */
export function addWarnings(ctx: RequestContext, messages: readonly string[]): void {
  for (const m of messages) ctx.warnings.push(`299 - ${JSON.stringify(m)}`);
}
