/**
 * pods/exec, pods/attach and pods/portforward: streams that upstream proxies to the kubelet of the
 * pod's node, after the checks of its ConnectResource handler and streamLocation, in their order:
 * no dry run, the options, the pod, its container (exec and attach), a node assigned, the node's
 * kubelet address, an upgrade request. The kubelet itself is out of reach (see unreachable.ts).
 */
import { badRequest } from '../../api/errors.js';
import type { ResourceStore } from '../../registry/store/resource-store.js';
import { recordAt, stringAt } from '../../registry/strategies/json-access.js';
import type { RequestContext } from '../../server/request-context.js';
import type { RequestScope } from '../scope.js';
import { refuseDryRun } from './connect-request.js';
import { parseGoInteger } from '../../serialization/go-query-values.js';
import { kubeletAddress } from './kubelet-address.js';
import { containerOf } from './pod-container.js';
import { joinHostPort, streamProxyError } from './unreachable.js';

export async function handlePodStream(ctx: RequestContext, scope: RequestScope, nodes: ResourceStore): Promise<void> {
  refuseDryRun(ctx.query);
  if (scope.subresource === 'portforward') checkPorts(ctx.query);
  const pod = await scope.store.get(scope.namespace, scope.name, { kind: 'consistent' }, ctx.signal);
  if (scope.subresource !== 'portforward') containerOf(pod, ctx.query.get('container') ?? '');
  const nodeName = stringAt(recordAt(pod, 'spec'), 'nodeName') ?? '';
  if (nodeName === '') throw badRequest(`pod ${scope.name} does not have a host assigned`);
  const kubelet = await kubeletAddress(nodes, nodeName);
  throw streamProxyError(ctx, joinHostPort(kubelet.host, kubelet.port));
}

/** PodPortForwardOptions.ports: repeated or comma-separated uint16s (Convert_Slice_string_To_Slice_int32). */
function checkPorts(query: URLSearchParams): void {
  for (const value of query.getAll('ports')) {
    for (const port of value.split(',')) parseGoInteger(port, 'ParseUint', 0n, 65535n, 'cannot convert to []int32: ');
  }
}
