/**
 * Decoding the object a create or update sends: read, parse, check its kind, and report unknown
 * and duplicate fields per the fieldValidation level. Unknown fields are dropped from the object.
 */
import { badRequest } from '../api/errors.js';
import type { ResourceDefinition } from '../registry/catalog/resource-definition.js';
import type { KubeObject } from '../registry/object.js';
import type { RequestContext } from '../server/request-context.js';
import { fieldValidationOf } from './query-flags.js';
import { applyFieldValidation, bodyMediaType, parseDocumentBytes, readBody } from './request-body.js';

/** What a schema check found: unknown field paths (already removed from `object`) and type errors. */
export interface FieldCheckResult {
  readonly object: KubeObject;
  readonly unknownFields: readonly string[];
  /** Fatal errors (a value of the wrong type): the request fails with 400 whatever the level. */
  readonly typeErrors: readonly string[];
}

/** Checks an object against its type's schema. */
export type FieldChecker = (definition: ResourceDefinition, object: KubeObject) => FieldCheckResult;

function apiVersionOf(d: ResourceDefinition): string {
  return d.group === '' ? d.version : `${d.group}/${d.version}`;
}

/** The prefix of upstream's decoding errors: `ConfigMap in version "v1" cannot be handled as a ConfigMap: `. */
export function decodeErrorPrefix(d: ResourceDefinition): string {
  return `${d.kind} in version "${d.version}" cannot be handled as a ${d.kind}: `;
}

/**
 * Decodes an object of `kind` (the definition's, or a subresource's). Throws 400 for malformed
 * bodies, a wrong kind or apiVersion, fatal type errors, and (Strict) unknown or duplicate fields;
 * 413 for oversize bodies; 415 for unknown media types.
 */
export async function decodeObjectBody(ctx: RequestContext, definition: ResourceDefinition, checkFields: FieldChecker | undefined): Promise<KubeObject> {
  const level = fieldValidationOf(ctx.query);
  const bytes = await readBody(ctx);
  const prefix = decodeErrorPrefix(definition);
  if (bytes.length === 0) throw badRequest(`${prefix}Object 'Kind' is missing in ''`);
  const { value, duplicates } = parseDocumentBytes(bytes, bodyMediaType(ctx), prefix.slice(0, -2));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest(`${prefix}the body is not a JSON object`);
  }
  const object = value as KubeObject;
  checkKind(definition, object);
  let result: FieldCheckResult = { object, unknownFields: [], typeErrors: [] };
  if (checkFields) result = checkFields(definition, object);
  if (result.typeErrors.length > 0) throw badRequest(`${prefix}${result.typeErrors.join(', ')}`);
  const problems = [
    ...result.unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`),
    ...duplicates.map((f) => `duplicate field ${JSON.stringify(f)}`),
  ];
  applyFieldValidation(ctx, level, problems, prefix);
  return result.object;
}

function checkKind(definition: ResourceDefinition, object: KubeObject): void {
  const expected = apiVersionOf(definition);
  if (object.kind !== undefined && object.kind !== '' && object.kind !== definition.kind) {
    throw badRequest(`${decodeErrorPrefix(definition)}the kind in the data (${String(object.kind)}) does not match the expected kind (${definition.kind})`);
  }
  if (object.apiVersion !== undefined && object.apiVersion !== '' && object.apiVersion !== expected) {
    throw badRequest(`the API version in the data (${String(object.apiVersion)}) does not match the expected API version (${expected})`);
  }
  if (object.metadata !== undefined && (typeof object.metadata !== 'object' || object.metadata === null || Array.isArray(object.metadata))) {
    throw badRequest(`${decodeErrorPrefix(definition)}metadata must be an object`);
  }
}
