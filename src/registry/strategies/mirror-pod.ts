/**
 * Static pods: a kubelet runs them from a file and shows each as a "mirror" pod marked by an
 * annotation. Upstream leaves mirror pods alone: no service-account volume, no ephemeral
 * containers, no resize.
 */
import { isRecord, type JsonRecord } from './json-access.js';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

export function isMirrorPod(pod: JsonRecord): boolean {
  const annotations = isRecord(pod['metadata']) ? pod['metadata']['annotations'] : undefined;
  return isRecord(annotations) && annotations[MIRROR_POD_ANNOTATION] !== undefined;
}
