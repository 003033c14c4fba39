/**
 * PATCH: the patch kind comes from Content-Type; the patch is applied to the stored object inside
 * the update loop (so a concurrent change is retried against the newer object), and the result
 * goes through the same update rules and validation as a PUT.
 */
import { ApiError, conflict, OBJECT_MODIFIED, unsupportedMediaType } from '../../api/errors.js';
import { metaOf, type KubeObject } from '../../registry/object.js';
import type { ResourceDefinition } from '../../registry/catalog/resource-definition.js';
import type { RequestContext } from '../../server/request-context.js';
import type { FieldChecker } from '../object-body.js';
import { decodeErrorPrefix } from '../object-body.js';
import { fieldValidationOf, isDryRun } from '../query-flags.js';
import { applyFieldValidation, parseDocumentBytes, readBody } from '../request-body.js';
import { writeObject } from '../respond.js';
import type { RequestScope } from '../scope.js';

/**
 * Applies one kind of patch to a copy of the stored object. `patch` is the parsed patch document.
 * Throws ApiErrors (400 for a malformed patch, 422 for a failed test operation).
 */
export type Patcher = (current: KubeObject, patch: unknown, definition: ResourceDefinition) => KubeObject;

/** Patchers by Content-Type; a type with none is answered 415. */
export type PatcherTable = ReadonlyMap<string, Patcher>;

export async function handlePatch(ctx: RequestContext, scope: RequestScope, patchers: PatcherTable, checkFields: FieldChecker | undefined): Promise<void> {
  const contentType = ((ctx.req.headers['content-type'] as string | undefined) ?? '').split(';')[0]!.trim().toLowerCase();
  const patcher = patchers.get(contentType);
  if (!patcher) throw unsupportedMediaType(contentType);
  const dryRun = isDryRun(ctx.query);
  const level = fieldValidationOf(ctx.query);
  const bytes = await readBody(ctx);
  const { value: patch, duplicates } = parseDocumentBytes(bytes, contentType.endsWith('yaml') ? 'application/yaml' : 'application/json', 'error decoding patch');
  const d = scope.definition;
  const prefix = decodeErrorPrefix(d);
  applyFieldValidation(ctx, level, duplicates.map((f) => `duplicate field ${JSON.stringify(f)}`), prefix);

  let warned = false;
  const result = await scope.store.update(
    scope.namespace,
    scope.name,
    (current) => {
      const currentVersion = metaOf(current).resourceVersion;
      let patched = patcher(current, patch, d);
      if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
        throw new ApiError(422, 'Invalid', `${prefix}the patched object is not an object`);
      }
      if (checkFields) {
        const check = checkFields(d, patched);
        if (check.typeErrors.length > 0) throw new ApiError(400, 'BadRequest', `${prefix}${check.typeErrors.join(', ')}`);
        if (!warned) {
          warned = true;
          applyFieldValidation(ctx, level, check.unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`), prefix);
        }
        patched = check.object;
      }
      // A patch that names a resourceVersion is a precondition: it must match the stored one.
      const asked = metaOf(patched).resourceVersion;
      if (asked !== undefined && asked !== '' && asked !== currentVersion) {
        throw conflict({ resource: d.resource, group: d.group, name: scope.name }, OBJECT_MODIFIED);
      }
      return patched;
    },
    { dryRun, subresource: scope.subresource },
  );
  writeObject(ctx, 200, result.object);
}
