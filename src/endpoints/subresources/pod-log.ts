/**
 * pods/log, as upstream's LogREST: the options are checked, then the pod and its container; a pod
 * no node runs yet has no log to stream, and upstream answers 204 No Content. A scheduled pod's log
 * lives with its node's kubelet, which this server cannot reach (see unreachable.ts).
 */
import { metaOf } from '../../registry/object.js';
import type { ResourceStore } from '../../registry/store/resource-store.js';
import { recordAt, stringAt } from '../../registry/strategies/json-access.js';
import type { RequestContext } from '../../server/request-context.js';
import { writeBody } from '../../server/write-response.js';
import type { RequestScope } from '../scope.js';
import { kubeletAddress } from './kubelet-address.js';
import { containerOf } from './pod-container.js';
import { kubeletLogQuery, podLogOptionsOf } from './pod-log-options.js';
import { joinHostPort, logFetchError } from './unreachable.js';

export async function handlePodLog(ctx: RequestContext, scope: RequestScope, nodes: ResourceStore): Promise<void> {
  const options = podLogOptionsOf(ctx.query, scope.name);
  const pod = await scope.store.get(scope.namespace, scope.name, { kind: 'consistent' }, ctx.signal);
  const container = containerOf(pod, options.container);
  const nodeName = stringAt(recordAt(pod, 'spec'), 'nodeName') ?? '';
  if (nodeName === '') return writeBody(ctx, 204, 'text/plain', '');
  const kubelet = await kubeletAddress(nodes, nodeName);
  const address = joinHostPort(kubelet.host, kubelet.port);
  const path = `/containerLogs/${scope.namespace}/${metaOf(pod).name}/${container}`;
  throw logFetchError(`https://${address}${path}${kubeletLogQuery(options)}`, address);
}
