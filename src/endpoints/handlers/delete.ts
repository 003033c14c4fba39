/**
 * DELETE of one object. The options come from the body (DeleteOptions) and the query; the answer is
 * the object while deletion is pending (finalizers, grace period), and a Success Status once it is
 * gone (or the object, for types that return it).
 */
import { badRequest } from '../../api/errors.js';
import { metaOf, type KubeObject } from '../../registry/object.js';
import type { DeleteObjectRequest } from '../../registry/store/delete.js';
import type { RequestContext } from '../../server/request-context.js';
import { isDryRun } from '../query-flags.js';
import { bodyMediaType, parseDocumentBytes, readBody } from '../request-body.js';
import { writeObject } from '../respond.js';
import type { RequestScope } from '../scope.js';

interface DeleteOptionsBody {
  gracePeriodSeconds?: unknown;
  propagationPolicy?: unknown;
  orphanDependents?: unknown;
  dryRun?: unknown;
  preconditions?: { uid?: unknown; resourceVersion?: unknown } | null;
}

const PROPAGATION_POLICIES = ['Orphan', 'Background', 'Foreground'];

/** Reads DeleteOptions from the body and query (the query wins, as upstream). */
export async function deleteRequestOf(ctx: RequestContext): Promise<DeleteObjectRequest & { orphanDependents?: boolean }> {
  const bytes = await readBody(ctx, 1024 * 1024);
  let body: DeleteOptionsBody = {};
  if (bytes.length > 0) {
    const { value } = parseDocumentBytes(bytes, bodyMediaType(ctx), 'DeleteOptions');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('DeleteOptions must be an object');
    body = value as DeleteOptionsBody;
  }
  const q = ctx.query;
  const grace = q.get('gracePeriodSeconds') ?? body.gracePeriodSeconds;
  const policy = q.get('propagationPolicy') ?? body.propagationPolicy;
  const orphan = q.get('orphanDependents') ?? body.orphanDependents;
  const bodyDryRun = Array.isArray(body.dryRun) && body.dryRun.includes('All');
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
    dryRun: isDryRun(q) || bodyDryRun,
    ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}),
    ...(policy !== undefined && policy !== null ? { propagationPolicy: String(policy) } : {}),
    ...(orphan !== undefined && orphan !== null ? { orphanDependents: orphan === true || orphan === 'true' } : {}),
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

export async function handleDelete(ctx: RequestContext, scope: RequestScope): Promise<void> {
  const request = await deleteRequestOf(ctx);
  const result = await scope.store.delete(scope.namespace, scope.name, request);
  const status = !result.deleted && request.orphanDependents === false ? 202 : 200;
  if (!result.deleted || scope.store.context.strategy.returnDeletedObject) {
    writeObject(ctx, status, result.object);
    return;
  }
  writeObject(ctx, status, successStatus(scope, result.object));
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
