/**
 * DELETE of one object. The options come from the body (DeleteOptions) and the query; the answer is
 * the object while deletion is pending (finalizers, grace period), and a Success Status once it is
 * gone (or the object, for types that return it). With ignoreStoreReadErrorWithClusterBreakingPotential
 * (and its feature gate) the request is the force delete of a corrupt object (unsafe-delete.ts).
 */
import { badRequest } from '../../api/errors.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { metaOf, type KubeObject } from '../../registry/object.js';
import type { DeleteObjectRequest, DeleteResult } from '../../registry/store/delete.js';
import type { RequestContext } from '../../server/request-context.js';
import { checkDryRun } from '../query-flags.js';
import { queryInt64, queryOptionalBool } from '../../serialization/go-query-values.js';
import { contentTypeOf, readBody } from '../request-body.js';
import { negotiate, writeObject, writeValue, type Output } from '../respond.js';
import { requestCodec } from '../../serialization/content-type.js';
import { BodyDecodeError, type CodecRegistry } from '../../serialization/codec.js';
import type { RequestScope } from '../scope.js';
import { authorizeUnsafeDelete, wantsUnsafeDelete } from './unsafe-delete.js';

interface DeleteOptionsBody {
  gracePeriodSeconds?: unknown;
  propagationPolicy?: unknown;
  orphanDependents?: unknown;
  dryRun?: unknown;
  preconditions?: { uid?: unknown; resourceVersion?: unknown } | null;
  ignoreStoreReadErrorWithClusterBreakingPotential?: unknown;
}

/** DeleteOptions as the delete handlers use them: what the store takes, and what only the handlers read. */
export type DeleteOptionsRequest = DeleteObjectRequest & {
  readonly orphanDependents?: boolean;
  /** ignoreStoreReadErrorWithClusterBreakingPotential, when given. */
  readonly ignoreStoreReadError?: boolean;
};

const PROPAGATION_POLICIES = ['Orphan', 'Background', 'Foreground'];

/** Reads DeleteOptions from the body and query (the query wins, as upstream). */
export async function deleteRequestOf(ctx: RequestContext, codecs: CodecRegistry): Promise<DeleteOptionsRequest> {
  const bytes = await readBody(ctx, 1024 * 1024);
  let value: unknown = null;
  if (bytes.length > 0) {
    try {
      value = requestCodec(contentTypeOf(ctx), codecs).decode(bytes).value;
    } catch (err) {
      if (err instanceof BodyDecodeError) throw badRequest(`the DeleteOptions in the request body could not be read: ${err.message}`);
      throw err;
    }
  }
  return deleteRequestFrom(value, ctx.query);
}

/**
 * DeleteOptions given as a value (a request body, or an Eviction's deleteOptions) and the query,
 * which wins. Throws 400 for options upstream refuses.
 */
export function deleteRequestFrom(options: unknown, q: URLSearchParams): DeleteOptionsRequest {
  if (options !== null && options !== undefined && (typeof options !== 'object' || Array.isArray(options))) throw badRequest('DeleteOptions must be an object');
  const body = (options ?? {}) as DeleteOptionsBody;
  // The query's values are converted as upstream converts url.Values: an int64 that does not
  // parse is a 400 in strconv's words before anything else is looked at; a bool is never refused.
  const graceInQuery = queryInt64(q, 'gracePeriodSeconds');
  const grace = graceInQuery !== undefined ? Number(graceInQuery) : body.gracePeriodSeconds;
  const policy = q.get('propagationPolicy') ?? body.propagationPolicy;
  const orphan = queryOptionalBool(q, 'orphanDependents') ?? body.orphanDependents;
  const ignoreReadError = queryOptionalBool(q, 'ignoreStoreReadErrorWithClusterBreakingPotential') ?? body.ignoreStoreReadErrorWithClusterBreakingPotential;
  // The query's dryRun replaces the body's, as upstream decodes the query over the body; the values
  // are then checked, so a misspelled dry run is refused rather than carried out for real.
  const fromQuery = q.getAll('dryRun');
  const dryRunValues = fromQuery.length > 0 ? fromQuery : body.dryRun === undefined || body.dryRun === null ? [] : [body.dryRun].flat().map(String);
  checkDryRun(dryRunValues, 'DeleteOptions');
  let gracePeriodSeconds: number | undefined;
  if (grace !== undefined && grace !== null) {
    gracePeriodSeconds = Number(grace);
    if (!Number.isInteger(gracePeriodSeconds)) throw badRequest(`gracePeriodSeconds: Invalid value: ${JSON.stringify(grace)}: must be an integer`);
    if (gracePeriodSeconds < 0) gracePeriodSeconds = 1;
  }
  if (policy !== undefined && policy !== null && !PROPAGATION_POLICIES.includes(String(policy))) {
    throw badRequest(`propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`);
  }
  if (orphan !== undefined && orphan !== null && policy !== undefined && policy !== null) {
    throw badRequest('orphanDependents: Invalid value: true: Cannot both set OrphanDependents and PropagationPolicy');
  }
  const preconditions = body.preconditions ?? undefined;
  return {
    dryRun: dryRunValues.length > 0,
    ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}),
    ...(policy !== undefined && policy !== null ? { propagationPolicy: String(policy) } : {}),
    ...(orphan !== undefined && orphan !== null ? { orphanDependents: orphan === true } : {}),
    ...(ignoreReadError !== undefined && ignoreReadError !== null ? { ignoreStoreReadError: ignoreReadError === true } : {}),
    ...(preconditions
      ? {
          preconditions: {
            ...(typeof preconditions.uid === 'string' ? { uid: preconditions.uid } : {}),
            ...(typeof preconditions.resourceVersion === 'string' ? { resourceVersion: preconditions.resourceVersion } : {}),
          },
        }
      : {}),
  };
}

/**
 * Serves a DELETE. `authorizer` decides the extra verb a force delete needs (the request's own
 * `delete` was authorized by the handler chain).
 */
export async function handleDelete(ctx: RequestContext, scope: RequestScope, authorizer: Authorizer): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs);
  const request = await deleteRequestOf(ctx, scope.env.codecs);
  if (wantsUnsafeDelete(request, scope.env)) {
    await authorizeUnsafeDelete(ctx, scope, authorizer);
    const forced = await scope.store.deleteCorrupt(scope.namespace, scope.name);
    if (forced.object === undefined) {
      await writeValue(ctx, 200, forceDeletedStatus(scope), out);
      return;
    }
    await writeResult(ctx, scope, { object: forced.object, deleted: forced.deleted }, 200, out);
    return;
  }
  const result = await scope.store.delete(scope.namespace, scope.name, { ...request, user: ctx.user });
  const status = !result.deleted && request.orphanDependents === false ? 202 : 200;
  await writeResult(ctx, scope, result, status, out);
}

/** The object while its deletion is pending (or for types that return it), else a Success Status. */
async function writeResult(ctx: RequestContext, scope: RequestScope, result: DeleteResult, status: number, out: Output): Promise<void> {
  if (!result.deleted || scope.store.context.strategy.returnDeletedObject) {
    await writeObject(ctx, status, result.object, scope.definition, out);
    return;
  }
  await writeValue(ctx, status, successStatus(scope, result.object), out);
}

/**
 * What a force delete answers, having no object to show: upstream's handler fills in a Status
 * with the code and only the name and kind, where a normal delete's Status names the resource.
 */
export function forceDeletedStatus(scope: RequestScope): Record<string, unknown> {
  const details = { name: scope.name, kind: scope.definition.kind };
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details, code: 200 };
}

/** The Status a completed delete answers with (upstream's shape: name, group, kind = resource, uid). */
export function successStatus(scope: RequestScope, object: KubeObject): Record<string, unknown> {
  const d = scope.definition;
  const meta = metaOf(object);
  const details: Record<string, unknown> = { name: meta.name };
  if (d.group !== '') details['group'] = d.group;
  details['kind'] = d.resource;
  details['uid'] = meta.uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}
