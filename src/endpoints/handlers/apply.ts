/**
 * Server-side apply (PATCH with application/apply-patch+yaml): the body is a partial object, the
 * configuration of one field manager, merged into the live object by field ownership. Answers 201
 * when it created the object, 200 otherwise, 409 listing the fields other managers own that it
 * would change (unless `force=true`).
 */
import { badRequest, type ApiError } from '../../api/errors.js';
import type { KubeObject } from '../../registry/object.js';
import type { RequestContext } from '../../server/request-context.js';
import { decodeJson } from '../../serialization/json-decode.js';
import { declaredKind, goKindString } from '../../serialization/object-decode.js';
import { YamlSyntaxError, decodeYaml } from '../../serialization/yaml-decode.js';
import { addWarnings, checkedObject } from '../object-body.js';
import { fieldManagerOf, fieldValidationOf, forceOf, isDryRun } from '../query-flags.js';
import { readBody } from '../request-body.js';
import { writeObject, type Output } from '../respond.js';
import type { RequestScope } from '../scope.js';

export async function handleApply(ctx: RequestContext, scope: RequestScope, out: Output): Promise<void> {
  const d = scope.definition;
  const dryRun = isDryRun(ctx.query, 'PatchOptions');
  const fieldValidation = fieldValidationOf(ctx.query, 'PatchOptions');
  const force = forceOf(ctx.query, true);
  const manager = fieldManagerOf(ctx.query, ctx.req.headers['user-agent'], 'PatchOptions', true);
  const { value, strictErrors } = decodeConfiguration(await readBody(ctx));
  ctx.audit?.requestPatch(() => value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest(`error decoding YAML: the configuration is not an object`);
  }
  const config = value as KubeObject;
  const gvk = declaredKind(config);
  if (gvk.group !== d.group || gvk.version !== d.version || gvk.kind !== d.kind) throw badRequest(`invalid object type: ${goKindString(gvk)}`);
  if (config.metadata?.managedFields !== undefined && config.metadata.managedFields !== null) throw badRequest('metadata.managedFields must be nil');
  if (strictErrors.length > 0) {
    if (fieldValidation === 'Strict') throw badRequest(`error strict decoding YAML: ${strictErrors.join(', ')}`);
    if (fieldValidation === 'Warn') addWarnings(ctx, strictErrors);
  }
  const result = await scope.store.apply(
    scope.namespace,
    scope.name,
    { config, manager, force, check: (object) => checkedObject(ctx, d, object, [], fieldValidation, scope.env.checkFields) },
    { dryRun, subresource: scope.subresource, user: ctx.user },
  );
  await writeObject(ctx, result.created ? 201 : 200, result.object, d, out);
}

/**
 * The configuration, as YAML (which JSON is). JSON without duplicate keys, what clients send, is
 * read by the JSON parser; anything else by the YAML one. Throws 400 for a body that is neither.
 */
function decodeConfiguration(body: Uint8Array): { value: unknown; strictErrors: readonly string[] } {
  if (startsLikeJsonObject(body)) {
    try {
      const decoded = decodeJson(body);
      if (decoded.duplicateFields.length === 0) return { value: decoded.value, strictErrors: [] };
    } catch {
      // Not JSON after all: YAML decides.
    }
  }
  try {
    return decodeYaml(body);
  } catch (err) {
    if (err instanceof YamlSyntaxError) throw badRequest(`error decoding YAML: ${err.message}`) as ApiError;
    throw err;
  }
}

function startsLikeJsonObject(body: Uint8Array): boolean {
  for (const byte of body) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === 0x7b;
  }
  return false;
}
