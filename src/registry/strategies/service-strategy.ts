/**
 * Services (core v1; upstream pkg/registry/core/service): defaults as upstream stores them, a
 * cluster IP from --service-cluster-ip-range and node ports from --service-node-port-range
 * reserved through the store's beginCreate/beginUpdate hooks, and freed by afterDelete.
 */
import type { FieldError } from '../../api/errors.js';
import type { ResourceDefinition } from '../catalog/resource-definition.js';
import type { KubeObject } from '../object.js';
import type { DeletedContext, Reservation, StrategyContext } from '../strategy.js';
import { GenericStrategy, type GenericStrategyOptions } from './generic-strategy.js';
import { ServiceAllocation } from './service-allocation.js';
import { defaultIpFamilies, defaultService, dropTypeDependentFields, inheritAllocatedValues } from './service-defaults.js';
import { validateService, validateServiceUpdate } from './service-validation.js';
import type { ServiceAllocators } from './strategy-deps.js';

export class ServiceStrategy extends GenericStrategy {
  private readonly allocation: ServiceAllocation;

  constructor(definition: ResourceDefinition, options: GenericStrategyOptions, allocators: ServiceAllocators) {
    super(definition, options);
    this.allocation = new ServiceAllocation(allocators);
  }

  override prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    super.prepareForCreate(object, ctx);
    defaultService(object);
    defaultIpFamilies(object);
    object['status'] = { loadBalancer: {} };
  }

  override prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    super.prepareForUpdate(object, old, ctx);
    if (ctx.subresource !== '') return;
    defaultService(object);
    inheritAllocatedValues(object, old);
    dropTypeDependentFields(object, old);
    defaultIpFamilies(object);
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    return validateService(object);
  }

  override validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource !== '') return [];
    return [...validateServiceUpdate(object, old), ...validateService(object)];
  }

  beginCreate(object: KubeObject, ctx: StrategyContext): Promise<Reservation> {
    return this.allocation.reserveForCreate(object, ctx);
  }

  beginUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): Promise<Reservation> {
    return this.allocation.reserveForUpdate(object, old, ctx);
  }

  afterDelete(object: KubeObject, _ctx: DeletedContext): Promise<void> {
    return this.allocation.releaseAll(object);
  }
}
