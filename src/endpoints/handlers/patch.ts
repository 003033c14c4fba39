/**
 * PATCH: the patch kind comes from Content-Type; the patch is applied to the stored object inside
 * the update loop (so a concurrent change is retried against the newer object), and the result goes
 * through the same schema check, update rules and validation as a PUT.
 */
import { applyPatch } from '../../patch/patchers.js';
import type { KubeObject } from '../../registry/object.js';
import type { RequestContext } from '../../server/request-context.js';
import { BUILT_IN_PATCH_KINDS, PatchKind, patchKindOf } from '../../serialization/patch-content-type.js';
import { decodeError } from '../../serialization/object-decode.js';
import { checkedObject } from '../object-body.js';
import { fieldManagerOf, fieldValidationOf, forceOf, isDryRun } from '../query-flags.js';
import { contentTypeOf, readBody } from '../request-body.js';
import { negotiate, writeObject } from '../respond.js';
import type { RequestScope } from '../scope.js';
import { handleApply } from './apply.js';

export async function handlePatch(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs);
  const kind = patchKindOf(contentTypeOf(ctx), BUILT_IN_PATCH_KINDS);
  if (kind === PatchKind.ApplyYaml) return handleApply(ctx, scope, out);
  forceOf(ctx.query, false);
  const manager = fieldManagerOf(ctx.query, ctx.req.headers['user-agent'], 'PatchOptions');
  const dryRun = isDryRun(ctx.query, 'PatchOptions');
  const fieldValidation = fieldValidationOf(ctx.query, 'PatchOptions');
  const body = await readBody(ctx);
  ctx.audit?.requestPatch(() => JSON.parse(body.toString()));
  const d = scope.definition;
  const appliers = await scope.env.patchersFor(d.schema);
  // Warnings are collected on the first attempt only: a retried attempt would repeat them.
  let attempts = 0;
  const result = await scope.store.update(
    scope.namespace,
    scope.name,
    (current) => {
      attempts++;
      const patched = applyPatch(kind, { current, body, fieldValidation }, appliers);
      if (typeof patched.value !== 'object' || patched.value === null || Array.isArray(patched.value)) {
        throw decodeError('the patched document is not an object', d.kind, new Uint8Array());
      }
      const warnings = ctx.warnings.length;
      const object = checkedObject(ctx, d, patched.value as KubeObject, patched.strictErrors, fieldValidation, scope.env.checkFields);
      if (attempts > 1) ctx.warnings.length = warnings;
      return object;
    },
    { dryRun, subresource: scope.subresource, user: ctx.user, manager },
  );
  await writeObject(ctx, 200, result.object, d, out);
}
