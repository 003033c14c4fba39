/**
 * Pods (upstream pkg/registry/core/pod plus the default admission plugins that shape a new pod).
 * A pod is created Pending with its QoS class, keeps its spec nearly frozen afterwards, and is
 * deleted gracefully only while a node may be running it.
 */
import type { FieldError } from '../../api/errors.js';
import type { ResourceDefinition } from '../catalog/resource-definition.js';
import type { KubeObject } from '../object.js';
import type { DeleteRequest, StrategyContext } from '../strategy.js';
import { GenericStrategy, type GenericStrategyOptions } from './generic-strategy.js';
import { asRecord, recordAt, recordsAt, stringAt } from './json-access.js';
import { fieldForbidden } from '../../validation/field-errors.js';
import { addDefaultTolerations, admitNewPod } from './pod-admission.js';
import { defaultPod } from './pod-defaults.js';
import { computeQosClass } from './pod-qos.js';
import { validatePodSpec } from './pod-spec-validation.js';
import { validatePodSpecUpdate } from './pod-update-rules.js';
import { EPHEMERAL_CONTAINERS, ephemeralSpec, validateEphemeralContainersUpdate } from './pod-ephemeral-containers.js';
import { RESIZE, resizedSpec, validatePodResize } from './pod-resize.js';
import { DEFAULT_CONTAINER_POLICY, DEFAULT_POD_OPTIONS, type ContainerPolicy, type NameValidators, type PodOptions } from './strategy-deps.js';

/** Upstream's default terminationGracePeriodSeconds. */
const DEFAULT_GRACE_SECONDS = 30;

export class PodStrategy extends GenericStrategy {
  constructor(
    definition: ResourceDefinition,
    options: GenericStrategyOptions,
    private readonly validators: NameValidators,
    private readonly pods: PodOptions = DEFAULT_POD_OPTIONS,
    private readonly containers: ContainerPolicy = DEFAULT_CONTAINER_POLICY,
  ) {
    super(definition, options);
  }

  override prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    super.prepareForCreate(object, ctx);
    defaultPod(object);
    admitNewPod(object, this.pods);
    object['status'] = { phase: 'Pending', qosClass: computeQosClass(asRecord(object, 'spec')) };
  }

  override prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource === EPHEMERAL_CONTAINERS || ctx.subresource === RESIZE) {
      // Each changes only its part of the spec; metadata stays as stored, as for a status write
      // (upstream resets it the same way).
      const spec = ctx.subresource === RESIZE ? resizedSpec(object, old) : ephemeralSpec(object, old);
      if (spec !== undefined) {
        this.keepAllButStatus(object, old);
        object['spec'] = spec;
      }
      defaultPod(object);
    }
    if (ctx.subresource === '') {
      defaultPod(object);
      const spec = asRecord(object, 'spec');
      addDefaultTolerations(spec, this.pods);
      // Priority admission keeps what it set on create when an update leaves it out.
      const oldSpec = recordAt(old, 'spec');
      for (const field of ['priority', 'preemptionPolicy']) {
        if (spec[field] === undefined && oldSpec?.[field] !== undefined) spec[field] = oldSpec[field];
      }
    }
    super.prepareForUpdate(object, old, ctx);
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    const spec = asRecord(object, 'spec');
    const errors = validatePodSpec(spec, 'spec', { validateLabel: this.validators.dns1123Label, requireImage: true, allowPrivileged: this.containers.allowPrivileged });
    // They are added to a running pod, through their subresource.
    if (recordsAt(spec, 'ephemeralContainers').length > 0) errors.push(fieldForbidden('spec.ephemeralContainers', 'cannot be set on create'));
    return errors;
  }

  override validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource === EPHEMERAL_CONTAINERS) return validateEphemeralContainersUpdate(object, old, this.validators.dns1123Label);
    if (ctx.subresource === RESIZE) return validatePodResize(object, old, this.validators.dns1123Label, this.containers.allowPrivileged);
    if (ctx.subresource !== '') return [];
    const spec = asRecord(object, 'spec');
    const errors = validatePodSpec(spec, 'spec', { validateLabel: this.validators.dns1123Label, requireImage: true, allowPrivileged: this.containers.allowPrivileged });
    return [...errors, ...validatePodSpecUpdate(spec, recordAt(old, 'spec') ?? {})];
  }

  /**
   * The requested period, else the pod's terminationGracePeriodSeconds; but 0 for a pod no node
   * runs (unscheduled or finished), and 1 for a negative request, as upstream.
   */
  override gracePeriod(object: KubeObject, request: DeleteRequest): number {
    const spec = recordAt(object, 'spec');
    const phase = stringAt(recordAt(object, 'status'), 'phase');
    if (!stringAt(spec, 'nodeName') || phase === 'Succeeded' || phase === 'Failed') return 0;
    const configured = spec?.['terminationGracePeriodSeconds'];
    const period = request.gracePeriodSeconds ?? (typeof configured === 'number' ? configured : DEFAULT_GRACE_SECONDS);
    return period < 0 ? 1 : period;
  }
}
