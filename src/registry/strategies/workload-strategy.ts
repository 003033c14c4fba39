/**
 * The common shape of the pod controllers (Deployments, ReplicaSets, StatefulSets, DaemonSets,
 * Jobs, CronJobs, ReplicationControllers): upstream applies their v1 defaults whenever a body is
 * decoded (create and update alike), starts them with a fresh status, and leaves status to
 * the controllers.
 */
import type { ResourceDefinition } from '../catalog/resource-definition.js';
import type { KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { GenericStrategy, type GenericStrategyOptions } from './generic-strategy.js';
import { asRecord, type JsonRecord } from './json-access.js';
import { DEFAULT_CONTAINER_POLICY, type ContainerPolicy, type NameValidators } from './strategy-deps.js';

export abstract class WorkloadStrategy extends GenericStrategy {
  constructor(
    definition: ResourceDefinition,
    options: GenericStrategyOptions,
    protected readonly validators: NameValidators,
    protected readonly containers: ContainerPolicy = DEFAULT_CONTAINER_POLICY,
  ) {
    super(definition, options);
  }

  /** Applies the kind's v1 defaults to `object` in place. */
  protected abstract applyDefaults(object: KubeObject): void;

  /**
   * The status of a new object: Go serializes the status fields without `omitempty` even when
   * zero, so upstream's stored objects show them (e.g. a new ReplicaSet has `{replicas: 0}`).
   */
  protected initialStatus(): JsonRecord {
    return {};
  }

  override prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    super.prepareForCreate(object, ctx);
    this.applyDefaults(object);
    object['status'] = this.initialStatus();
  }

  override prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource === '') this.applyDefaults(object);
    super.prepareForUpdate(object, old, ctx);
  }

  /** The spec, created when absent. */
  protected spec(object: KubeObject): JsonRecord {
    return asRecord(object, 'spec');
  }
}
