/**
 * A pod's quality-of-service class (upstream's qos.ComputePodQOS), stored in status.qosClass on
 * create: BestEffort without cpu/memory requests or limits, Guaranteed when every container limits
 * both and requests equal limits, Burstable otherwise.
 */
import { isRecord, recordAt, recordsAt, type JsonRecord } from './json-access.js';
import { quantityValue } from './quantity.js';

export type QosClass = 'BestEffort' | 'Burstable' | 'Guaranteed';

const QOS_RESOURCES = ['cpu', 'memory'] as const;

/** The QoS class of a pod spec (after defaulting, so requests already default to limits). */
export function computeQosClass(spec: JsonRecord): QosClass {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let limitsEverything = true;
  for (const container of [...recordsAt(spec, 'initContainers'), ...recordsAt(spec, 'containers')]) {
    const resources = recordAt(container, 'resources');
    addNonZero(requests, recordAt(resources, 'requests'));
    const containerLimits = recordAt(resources, 'limits');
    addNonZero(limits, containerLimits);
    if (!QOS_RESOURCES.every((name) => isRecord(containerLimits) && quantityValue(containerLimits[name]) > 0)) limitsEverything = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (!limitsEverything) return 'Burstable';
  const equal = [...requests].every(([name, value]) => limits.get(name) === value) && requests.size === limits.size;
  return equal ? 'Guaranteed' : 'Burstable';
}

function addNonZero(sum: Map<string, number>, list: JsonRecord | undefined): void {
  if (!list) return;
  for (const name of QOS_RESOURCES) {
    const value = quantityValue(list[name]);
    if (value > 0) sum.set(name, (sum.get(name) ?? 0) + value);
  }
}
