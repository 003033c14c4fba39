/**
 * What a resize may do to one container's `resources` (upstream's validateContainerResize and
 * dropCPUMemoryResourcesFromContainer, Kubernetes 1.35): cpu and memory requests and limits may
 * change but not be removed, and nothing else of the container may change. Quantities compare by
 * value ("1" equals "1000m") and an empty list equals an absent one, as Go's Semantic.DeepEqual
 * compares them.
 */
import type { FieldError } from '../../api/errors.js';
import { jsonEqual } from '../object.js';
import { fieldForbidden, fieldInvalid } from '../../validation/field-errors.js';
import { isRecord, recordAt, recordsAt, type JsonRecord } from './json-access.js';
import { quantityValue } from './quantity.js';

const RESIZABLE = ['cpu', 'memory'];
const REQUIREMENTS = ['requests', 'limits'] as const;

/** Forbidden errors for a request or limit that `old` has and `next` no longer has. */
export function validateNothingRemoved(next: JsonRecord | undefined, old: JsonRecord | undefined, path: string): FieldError[] {
  return REQUIREMENTS.filter((kind) => {
    const kept = Object.keys(recordAt(next, kind) ?? {});
    return Object.keys(recordAt(old, kind) ?? {}).some((name) => !kept.includes(name));
  }).map((kind) => fieldForbidden(`${path}.${kind}`, `resource ${kind} cannot be removed`));
}

/**
 * Whether container `next` differs from `old` in cpu and memory requests and limits only. Like
 * upstream, which rebuilds the container's resources from requests and limits alone before it
 * compares, a container with resource claims never passes.
 */
export function changesOnlyCpuAndMemory(next: JsonRecord, old: JsonRecord): boolean {
  const [nextResources, oldResources] = [recordAt(next, 'resources'), recordAt(old, 'resources')];
  return (
    sameApartFromResources(next, old) &&
    recordsAt(oldResources, 'claims').length === 0 &&
    REQUIREMENTS.every((kind) => sameQuantities(recordAt(nextResources, kind), recordAt(oldResources, kind), RESIZABLE))
  );
}

/** Whether containers `next` and `old` are the same, quantities compared by value. */
export function sameContainer(next: JsonRecord, old: JsonRecord): boolean {
  const [nextResources, oldResources] = [recordAt(next, 'resources'), recordAt(old, 'resources')];
  return (
    sameApartFromResources(next, old) &&
    jsonEqual(recordsAt(nextResources, 'claims'), recordsAt(oldResources, 'claims')) &&
    REQUIREMENTS.every((kind) => sameQuantities(recordAt(nextResources, kind), recordAt(oldResources, kind), []))
  );
}

/**
 * cpu and memory of each container's resources: not negative, and a request no larger than its
 * limit (upstream's validateResourceRequirements, which Capstan's pod validation does not run yet;
 * a resize is where a request most often outgrows its limit).
 */
export function validateCpuMemoryRequirements(spec: JsonRecord): FieldError[] {
  return ['containers', 'initContainers'].flatMap((list) =>
    recordsAt(spec, list).flatMap((container, i) => validateRequirements(recordAt(container, 'resources'), `spec.${list}[${i}].resources`)),
  );
}

/** Limits first, then each request (not negative, within its limit), in upstream's order. */
function validateRequirements(resources: JsonRecord | undefined, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const limits = recordAt(resources, 'limits') ?? {};
  const requests = recordAt(resources, 'requests') ?? {};
  const negative = (kind: string, name: string, value: unknown) => fieldInvalid(`${path}.${kind}[${name}]`, value, 'must be greater than or equal to 0');
  for (const name of RESIZABLE) {
    if (limits[name] !== undefined && quantityValue(limits[name]) < 0) errors.push(negative('limits', name, limits[name]));
  }
  for (const name of RESIZABLE) {
    const request = requests[name];
    if (request === undefined) continue;
    if (quantityValue(request) < 0) errors.push(negative('requests', name, request));
    if (limits[name] !== undefined && quantityValue(request) > quantityValue(limits[name])) {
      errors.push(fieldInvalid(`${path}.requests`, request, `must be less than or equal to ${name} limit of ${String(limits[name])}`));
    }
  }
  return errors;
}

/** Equal but for `resources`, with an empty resizePolicy the same as none (a nil and an empty Go slice). */
function sameApartFromResources(next: JsonRecord, old: JsonRecord): boolean {
  const policies = (c: JsonRecord) => (Array.isArray(c['resizePolicy']) && c['resizePolicy'].length > 0 ? c['resizePolicy'] : undefined);
  return jsonEqual({ ...next, resources: undefined, resizePolicy: policies(next) }, { ...old, resources: undefined, resizePolicy: policies(old) });
}

/** Whether two resource lists hold the same quantities, leaving out the resources `except`. */
function sameQuantities(a: JsonRecord | undefined, b: JsonRecord | undefined, except: readonly string[]): boolean {
  const names = (list: JsonRecord | undefined) => Object.keys(list ?? {}).filter((name) => !except.includes(name));
  const [inA, inB] = [names(a), names(b)];
  return inA.length === inB.length && inA.every((name) => isRecord(b) && name in b && quantityValue(a![name]) === quantityValue(b[name]));
}
