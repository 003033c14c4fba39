/**
 * The pods/resize subresource (what `kubectl patch pod P --subresource resize` writes): the way to
 * change a pod's cpu and memory in place, as upstream's podResizeStrategy and ValidatePodResize of
 * Kubernetes 1.35.
 * - A write carries over the containers' and init containers' `resources` and `resizePolicy` only;
 *   the rest of the pod stays as stored.
 * - Pods with pod-level resources, static (mirror) pods and Windows pods cannot be resized.
 * - The QoS class may not change; containers may not be added, removed, renamed or reordered;
 *   requests and limits may not be removed; only cpu and memory may change, of regular and sidecar
 *   containers (init containers that are not sidecars keep all their resources).
 * - A memory limit may be lowered whatever the resizePolicy: since 1.34 the kubelet, which knows
 *   the usage, decides whether that is safe (upstream PR 133012 removed the API's refusal).
 */
import type { FieldError } from '../../api/errors.js';
import { fieldForbidden, fieldInvalid } from '../../validation/field-errors.js';
import type { NameValidator } from '../../validation/name-validators.js';
import type { KubeObject } from '../object.js';
import { recordAt, recordsAt, stringAt, type JsonRecord } from './json-access.js';
import { computeQosClass } from './pod-qos.js';
import { changesOnlyCpuAndMemory, sameContainer, validateCpuMemoryRequirements, validateNothingRemoved } from './pod-resize-resources.js';
import { validatePodSpec } from './pod-spec-validation.js';
import { isMirrorPod } from './mirror-pod.js';

export const RESIZE = 'resize';

const CONTAINER_LISTS = ['containers', 'initContainers'] as const;
const RESIZE_FIELDS = ['resources', 'resizePolicy'];
/** How upstream prints the root path field.NewPath(""): the error is about the whole pod. */
const WHOLE_POD = '[]';

/**
 * The spec a resize write makes of stored pod `old` (upstream's dropNonResizeUpdates): the stored
 * spec with each container's resources and resizePolicy from `object`. A list whose names do not
 * match the stored ones position for position is taken as written; when a list has another length
 * the whole write stands (undefined is returned). Either way validation then refuses it.
 */
export function resizedSpec(object: KubeObject, old: KubeObject): JsonRecord | undefined {
  const written = recordAt(object, 'spec');
  const stored = recordAt(old, 'spec') ?? {};
  if (CONTAINER_LISTS.some((list) => recordsAt(written, list).length !== recordsAt(stored, list).length)) return undefined;
  const spec = structuredClone(stored);
  for (const list of CONTAINER_LISTS) {
    if (spec[list] !== undefined) spec[list] = withResizeFields(recordsAt(written, list), recordsAt(stored, list));
  }
  return spec;
}

/** Field errors of a resize turning `old` into `object` (both defaulted). */
export function validatePodResize(object: KubeObject, old: KubeObject, validateLabel: NameValidator, allowPrivileged: boolean): FieldError[] {
  const spec = recordAt(object, 'spec') ?? {};
  const stored = recordAt(old, 'spec') ?? {};
  const errors = [...validatePodSpec(spec, 'spec', { validateLabel, requireImage: true, allowPrivileged }), ...validateCpuMemoryRequirements(spec)];
  const refusal = whyNotResizable(spec, old);
  if (refusal !== undefined) return [fieldForbidden(WHOLE_POD, refusal)];
  const qosClass = stringAt(recordAt(old, 'status'), 'qosClass') || computeQosClass(stored);
  if (computeQosClass(spec) !== qosClass) {
    errors.push(fieldInvalid('spec', stringAt(recordAt(object, 'status'), 'qosClass') ?? '', 'Pod QOS Class may not change as a result of resizing'));
  }
  if (!nodeSupportsResize(old)) errors.push(fieldForbidden('spec', 'Pod running on node without support for resize'));
  // The remaining rules pair containers by position, so they wait for the lists to line up.
  const order = validateContainerOrder(spec, stored);
  if (order.length > 0) return [...errors, ...order];
  return [...errors, ...validateResourceChanges(spec, stored)];
}

/** `stored` with each container's resize fields from `written`; a renamed or reordered list as written. */
function withResizeFields(written: JsonRecord[], stored: JsonRecord[]): JsonRecord[] {
  if (written.some((container, i) => container['name'] !== stored[i]?.['name'])) return written;
  return stored.map((container, i) => {
    const next = structuredClone(container);
    for (const field of RESIZE_FIELDS) {
      const value = written[i]![field];
      if (value === undefined || value === null) delete next[field];
      else next[field] = value;
    }
    return next;
  });
}

/** Why the pod cannot be resized at all, or undefined. */
function whyNotResizable(spec: JsonRecord, old: KubeObject): string | undefined {
  const stored = recordAt(old, 'spec');
  if (hasPodLevelResources(stored) || hasPodLevelResources(spec)) return 'pods with pod-level resources cannot be resized';
  if (isMirrorPod(old)) return 'static pods cannot be resized';
  if (stringAt(recordAt(stored, 'os'), 'name') === 'windows') return 'windows pods cannot be resized';
  return undefined;
}

function hasPodLevelResources(spec: JsonRecord | undefined): boolean {
  const resources = recordAt(spec, 'resources');
  return Object.keys(recordAt(resources, 'requests') ?? {}).length + Object.keys(recordAt(resources, 'limits') ?? {}).length > 0;
}

/**
 * Whether the node can resize: a running container whose status reports no resources runs on a
 * kubelet that predates in-place resize. Without a running container nothing tells, so yes.
 */
function nodeSupportsResize(pod: KubeObject): boolean {
  const running = recordsAt(recordAt(pod, 'status'), 'containerStatuses').find((s) => recordAt(recordAt(s, 'state'), 'running') !== undefined);
  return running === undefined || (running['resources'] !== undefined && running['resources'] !== null);
}

function validateContainerOrder(spec: JsonRecord, stored: JsonRecord): FieldError[] {
  return CONTAINER_LISTS.flatMap((list) => {
    const [next, old] = [recordsAt(spec, list), recordsAt(stored, list)];
    if (next.length !== old.length) return [fieldForbidden(`spec.${list}`, `${list} may not be added or removed on resize`)];
    return old.flatMap((container, i) =>
      next[i]!['name'] === container['name'] ? [] : [fieldForbidden(`spec.${list}[${i}].name`, `${list} may not be renamed or reordered on resize`)],
    );
  });
}

/** Removal rules first (sidecars, then containers), then what may change at all, as upstream. */
function validateResourceChanges(spec: JsonRecord, stored: JsonRecord): FieldError[] {
  const errors: FieldError[] = [];
  const [containers, oldContainers] = [recordsAt(spec, 'containers'), recordsAt(stored, 'containers')];
  const [inits, oldInits] = [recordsAt(spec, 'initContainers'), recordsAt(stored, 'initContainers')];
  oldInits.forEach((old, i) => {
    if (isSidecar(old)) errors.push(...validateNothingRemoved(resourcesOf(inits[i]), resourcesOf(old), `spec.initContainers[${i}].resources`));
  });
  oldContainers.forEach((old, i) => errors.push(...validateNothingRemoved(resourcesOf(containers[i]), resourcesOf(old), `spec.containers[${i}].resources`)));
  containers.forEach((container, i) => {
    if (!changesOnlyCpuAndMemory(container, oldContainers[i]!)) errors.push(fieldForbidden('spec', 'only cpu and memory resources are mutable'));
  });
  inits.forEach((container, i) => {
    if (isSidecar(container)) {
      if (!changesOnlyCpuAndMemory(container, oldInits[i]!)) errors.push(fieldForbidden('spec', 'only cpu and memory resources for sidecar containers are mutable'));
    } else if (!sameContainer(container, oldInits[i]!)) {
      errors.push(fieldForbidden('spec', 'resources for non-sidecar init containers are immutable'));
    }
  });
  return errors;
}

/** An init container that keeps running beside the others (restartPolicy Always). */
function isSidecar(container: JsonRecord): boolean {
  return container['restartPolicy'] === 'Always';
}

function resourcesOf(container: JsonRecord | undefined): JsonRecord | undefined {
  return recordAt(container, 'resources');
}
