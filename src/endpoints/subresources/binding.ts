/**
 * A v1 Binding POSTed to pods/{name}/binding, or to the namespace's `bindings` collection (which
 * takes the pod's name from the Binding): binds the pod to the target node, as upstream's
 * BindingREST and LegacyBindingREST do, and answers 201 with a success Status (upstream's create
 * handler fills in the code of a Status the storage returns).
 */
import { ApiError, badRequest } from '../../api/errors.js';
import { bindPod } from '../../registry/binding/bind-pod.js';
import { subresourceBodyDefinition } from '../../registry/catalog/resource-definition.js';
import { metaOf } from '../../registry/object.js';
import type { ResourceStore } from '../../registry/store/resource-store.js';
import { fieldNotSupported, fieldRequired } from '../../validation/field-errors.js';
import { recordAt, stringAt } from '../../registry/strategies/json-access.js';
import type { RequestContext } from '../../server/request-context.js';
import { decodeObjectBody } from '../object-body.js';
import { isDryRun } from '../query-flags.js';
import { negotiate, writeValue } from '../respond.js';
import type { RequestScope } from '../scope.js';

/** Whether the request creates a Binding (the subresource or the legacy collection). */
export function isBindingRequest(scope: RequestScope): boolean {
  const d = scope.definition;
  return d.group === '' && (scope.subresource === 'binding' || (d.resource === 'bindings' && scope.subresource === ''));
}

export async function handleBinding(ctx: RequestContext, scope: RequestScope, pods: ResourceStore): Promise<void> {
  const out = negotiate(ctx, scope.env.codecs, { table: false, partialObjectMetadata: false });
  const dryRun = isDryRun(ctx.query, 'CreateOptions');
  const binding = await decodeObjectBody(ctx, subresourceBodyDefinition(scope.definition, scope.subresource), scope.env);
  const meta = metaOf(binding);
  if (meta.namespace && meta.namespace !== scope.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const name = scope.subresource === 'binding' ? scope.name : (meta.name ?? '');
  // NamespaceLifecycle admission runs before the storage sees the Binding.
  await pods.admitSubresourceCreate(scope.namespace, { resource: scope.definition.resource, group: '', name });
  if (name !== (meta.name ?? '')) throw badRequest('name in URL does not match name in Binding object');
  const target = recordAt(binding, 'target');
  const node = stringAt(target, 'name') ?? '';
  checkBinding(stringAt(target, 'kind') ?? '', node);
  await bindPod(pods, {
    namespace: scope.namespace,
    name,
    node,
    ...(meta.uid ? { uid: meta.uid } : {}),
    ...(meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}),
    annotations: meta.annotations ?? {},
    labels: meta.labels ?? {},
    dryRun,
  });
  await writeValue(ctx, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, out);
}

/**
 * Upstream's ValidatePodBinding. Its errors leave BindingREST as a plain aggregate rather than an
 * Invalid status, so clients get a 500 without a reason, worded as the aggregate prints.
 */
function checkBinding(kind: string, node: string): void {
  const errors = [
    ...(kind !== '' && kind !== 'Node' ? [fieldNotSupported('target.kind', kind, ['Node', '<empty>'])] : []),
    ...(node === '' ? [fieldRequired('target.name')] : []),
  ].map((e) => `${e.field}: ${e.message}`);
  if (errors.length === 0) return;
  throw new ApiError(500, '', errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);
}
