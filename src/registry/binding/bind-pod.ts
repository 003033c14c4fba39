/**
 * Binding a pod to a node, as upstream's BindingREST.assignPod: spec.nodeName is set only on a pod
 * that no node has yet, that is not being deleted and that no scheduling gate holds back; the
 * Binding's annotations and labels are merged into the pod's, a stale nominatedNodeName is
 * cleared (ClearingNominatedNodeNameAfterBinding and PodTopologyLabelsAdmission are on by default
 * in 1.35) and the pod is marked PodScheduled. Upstream writes this straight to storage, past the
 * pod strategy that keeps spec.nodeName immutable, so it is a system update here too: no
 * defaulting, no validation, no new generation.
 */
import { badRequest, conflict } from '../../api/errors.js';
import { nameIsPathSegment } from '../../validation/name-validators.js';
import { goQuote } from '../../serialization/go-format.js';
import { metaOf, timestamp, type KubeObject } from '../object.js';
import type { ResourceStore } from '../store/resource-store.js';
import { asRecord, recordsAt, stringAt } from '../strategies/json-access.js';
import { setPodCondition } from '../strategies/pod-condition.js';

export interface BindRequest {
  readonly namespace: string;
  /** The pod's name (the Binding's). */
  readonly name: string;
  /** The node the pod goes to (target.name). */
  readonly node: string;
  /** The Binding's metadata.uid and resourceVersion: preconditions on the pod. */
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly annotations: Readonly<Record<string, string>>;
  readonly labels: Readonly<Record<string, string>>;
  readonly dryRun: boolean;
}

/**
 * Binds the pod. Throws 400 for a name no pod can have, 404 when the pod is absent, 409 when a
 * precondition fails or the pod cannot be bound (conflicts on `pods/binding`, as upstream).
 */
export async function bindPod(pods: ResourceStore, request: BindRequest): Promise<void> {
  checkPodName(request.name);
  const now = timestamp(pods.context.clock());
  await pods.update(request.namespace, request.name, (pod) => assign(pod, request, now), {
    dryRun: request.dryRun,
    subresource: 'binding',
    systemUpdate: true,
    preconditions: {
      ...(request.uid ? { uid: request.uid } : {}),
      ...(request.resourceVersion ? { resourceVersion: request.resourceVersion } : {}),
    },
  });
}

/** What upstream's pod store key function refuses: an empty name, or one no URL path can carry. */
function checkPodName(name: string): void {
  if (name === '') throw badRequest('Name parameter required.');
  const problems = nameIsPathSegment(name, false);
  if (problems.length > 0) throw badRequest(`Name parameter invalid: ${goQuote(name)}: ${problems.join(';')}`);
}

function assign(pod: KubeObject, request: BindRequest, now: string): KubeObject {
  const meta = metaOf(pod);
  const cannot = (why: string) => conflict({ resource: 'pods/binding', group: '', name: request.name }, why);
  const spec = asRecord(pod, 'spec');
  const assigned = stringAt(spec, 'nodeName') ?? '';
  if (meta.deletionTimestamp) throw cannot(`pod ${meta.name} is being deleted, cannot be assigned to a host`);
  if (assigned !== '') throw cannot(`pod ${meta.name} is already assigned to node ${goQuote(assigned)}`);
  if (recordsAt(spec, 'schedulingGates').length > 0) throw cannot(`pod ${meta.name} has non-empty .spec.schedulingGates`);
  spec['nodeName'] = request.node;
  const status = asRecord(pod, 'status');
  delete status['nominatedNodeName'];
  if (Object.keys(request.annotations).length > 0) meta.annotations = { ...meta.annotations, ...request.annotations };
  if (Object.keys(request.labels).length > 0) meta.labels = { ...meta.labels, ...request.labels };
  setPodCondition(status, { type: 'PodScheduled', status: 'True' }, now);
  return pod;
}
