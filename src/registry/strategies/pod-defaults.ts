/**
 * Upstream's v1 defaults that apply to Pods but not to pod templates (SetDefaults_Pod): requests
 * default to limits, service links are on, and host-network pods publish their ports on the host.
 */
import { asRecord, defaultTo, isRecord, recordAt, recordsAt, type JsonRecord } from './json-access.js';
import { defaultPodSpec } from './pod-spec-defaults.js';

/** Applies the Pod and PodSpec defaults to `pod.spec` in place. */
export function defaultPod(pod: JsonRecord): void {
  const spec = asRecord(pod, 'spec');
  for (const list of ['initContainers', 'containers']) {
    for (const container of recordsAt(spec, list)) requestsFromLimits(container);
  }
  defaultTo(spec, 'enableServiceLinks', true);
  if (spec['hostNetwork'] === true) {
    for (const list of ['initContainers', 'containers']) {
      for (const container of recordsAt(spec, list)) {
        for (const port of recordsAt(container, 'ports')) defaultTo(port, 'hostPort', port['containerPort']);
      }
    }
  }
  defaultPodSpec(spec);
}

/** A limit without a request means the request equals the limit. */
function requestsFromLimits(container: JsonRecord): void {
  const resources = recordAt(container, 'resources');
  const limits = recordAt(resources, 'limits');
  if (!resources || !limits || Object.keys(limits).length === 0) return;
  const requests = isRecord(resources['requests']) ? resources['requests'] : {};
  for (const [name, value] of Object.entries(limits)) if (requests[name] === undefined) requests[name] = value;
  resources['requests'] = requests;
}
