/**
 * POST of an Eviction (policy/v1, or the older policy/v1beta1) to pods/{name}/eviction: decodes and
 * checks the Eviction, evicts (src/registry/eviction), and answers 201 with a Status, as upstream's
 * create handler does for a subresource whose result is a Status. When more than one
 * PodDisruptionBudget covers the pod, that Status is a Failure with code 500 — still sent as a 201,
 * as upstream does; clients read the Status.
 */
import { ApiError, badRequest } from '../../api/errors.js';
import { subresourceBodyDefinition } from '../../registry/catalog/resource-definition.js';
import { evictPod } from '../../registry/eviction/evict-pod.js';
import { metaOf, type KubeObject } from '../../registry/object.js';
import type { ResourceStore } from '../../registry/store/resource-store.js';
import type { RequestContext } from '../../server/request-context.js';
import { requestCodec } from '../../serialization/content-type.js';
import { apiVersionMismatchError, decodeError, decodeObject, type GroupVersionKind } from '../../serialization/object-decode.js';
import { deleteRequestFrom } from '../handlers/delete.js';
import { checkedObject } from '../object-body.js';
import { fieldValidationOf, isDryRun } from '../query-flags.js';
import { contentTypeOf, readBody } from '../request-body.js';
import { negotiate, writeValue } from '../respond.js';
import type { RequestScope } from '../scope.js';

const EVICTION: GroupVersionKind = { group: 'policy', version: 'v1', kind: 'Eviction' };
/** The versions of Eviction upstream accepts here; both have the same fields. */
const EVICTION_VERSIONS = ['v1', 'v1beta1'];
const SEVERAL_BUDGETS = 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

export async function handleEviction(ctx: RequestContext, scope: RequestScope, budgets: ResourceStore): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs, { table: false, partialObjectMetadata: false });
  const eviction = await decodeEviction(ctx, scope);
  const meta = metaOf(eviction);
  if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== scope.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  // NamespaceLifecycle admission runs before the eviction itself: an eviction is a create.
  await scope.store.admitSubresourceCreate(scope.namespace, { resource: scope.definition.resource, group: '', name: scope.name });
  if (meta.name !== scope.name) throw badRequest('name in URL does not match name in Eviction object');
  const options = eviction['deleteOptions'];
  const dryRun = propagatedDryRun(ctx.query, options);
  const outcome = await evictPod(
    { pods: scope.store, budgets },
    { namespace: scope.namespace, name: scope.name, delete: { ...deleteRequestFrom(options, new URLSearchParams()), dryRun }, now: Date.now },
  );
  const status =
    outcome === 'evicted'
      ? { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }
      : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: SEVERAL_BUDGETS, code: 500 };
  await writeValue(ctx, 201, status, out);
}

/** The Eviction in the body, in either accepted version; unknown fields per fieldValidation. */
async function decodeEviction(ctx: RequestContext, scope: RequestScope): Promise<KubeObject> {
  const body = await readBody(ctx);
  const codec = requestCodec(contentTypeOf(ctx), scope.env.codecs);
  const { object, gvk, strictErrors } = decodeObject(body, codec, { kind: EVICTION.kind, defaults: EVICTION });
  if (gvk.group !== EVICTION.group || !EVICTION_VERSIONS.includes(gvk.version)) throw apiVersionMismatchError(gvk, EVICTION);
  if (gvk.kind !== EVICTION.kind) {
    throw decodeError(`the kind in the data (${gvk.kind}) does not match the expected kind (${EVICTION.kind})`, EVICTION.kind, body, gvk);
  }
  return checkedObject(ctx, subresourceBodyDefinition(scope.definition, 'eviction'), object as KubeObject, strictErrors, fieldValidationOf(ctx.query, 'CreateOptions'), scope.env.checkFields, gvk);
}

/**
 * Upstream's rule for the two places a dry run can be asked for, the query and the Eviction's
 * deleteOptions: either alone decides; both must then agree.
 */
function propagatedDryRun(query: URLSearchParams, options: unknown): boolean {
  const fromQuery = isDryRun(query, 'CreateOptions') ? query.getAll('dryRun') : [];
  const given = (options as { dryRun?: unknown } | null | undefined)?.dryRun;
  const fromBody = Array.isArray(given) ? given.map(String) : [];
  if (fromBody.length > 0 && fromQuery.length > 0 && fromBody.join('\0') !== fromQuery.join('\0')) {
    // Upstream returns a plain error here, which becomes a 500 without a reason.
    throw new ApiError(500, '', `Non-matching dry-run options in request and content: [${fromQuery.join(' ')}] and [${fromBody.join(' ')}]`);
  }
  return (fromBody.length > 0 ? fromBody : fromQuery).includes('All');
}
