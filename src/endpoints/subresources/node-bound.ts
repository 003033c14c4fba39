/**
 * The pod, node and service subresources that upstream serves by going on to a kubelet or to a
 * pod: pods/log, pods/exec, pods/attach, pods/portforward and the proxy subresources. This server
 * has no kubelets and no network to pods, so each answers what upstream answers up to that point,
 * and then what upstream answers when the connection fails (unreachable.ts).
 */
import type { ResourceStore } from '../../registry/store/resource-store.js';
import type { RequestContext } from '../../server/request-context.js';
import type { RequestScope } from '../scope.js';
import { handlePodLog } from './pod-log.js';
import { handlePodStream } from './pod-stream.js';
import { handleProxy } from './proxy.js';

/** The store of another core type such a subresource reads. */
export type CoreStores = (resource: 'pods' | 'nodes' | 'endpoints') => ResourceStore;

const POD_STREAMS = new Set(['exec', 'attach', 'portforward']);

/** Whether the request is for one of these subresources. */
export function isNodeBound(scope: RequestScope): boolean {
  const { group, resource } = scope.definition;
  if (group !== '') return false;
  if (resource === 'pods') return scope.subresource === 'log' || scope.subresource === 'proxy' || POD_STREAMS.has(scope.subresource);
  return (resource === 'nodes' || resource === 'services') && scope.subresource === 'proxy';
}

export function handleNodeBound(ctx: RequestContext, scope: RequestScope, core: CoreStores): Promise<void> {
  if (scope.subresource === 'log') return handlePodLog(ctx, scope, core('nodes'));
  if (scope.subresource === 'proxy') return handleProxy(ctx, scope, core);
  return handlePodStream(ctx, scope, core('nodes'));
}
