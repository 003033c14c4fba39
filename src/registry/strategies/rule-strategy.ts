/**
 * A strategy assembled from plain rules, for the types whose specifics are a few defaults and
 * checks (Ingress, NetworkPolicy, StorageClass, RBAC bindings, ...). Upstream applies v1 defaults
 * whenever a body is decoded, so `defaults` runs on create and on every main-resource update.
 */
import type { FieldError } from '../../api/errors.js';
import type { ResourceDefinition } from '../catalog/resource-definition.js';
import type { KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { GenericStrategy, type GenericStrategyOptions } from './generic-strategy.js';
import type { JsonRecord } from './json-access.js';

export interface TypeRules {
  /** The kind's v1 defaults, applied in place; `version` is the served version of the request. */
  readonly defaults?: (object: KubeObject, version: string) => void;
  /** The status of a new object (Go's zero values of fields it always serializes). */
  readonly initialStatus?: (version: string) => JsonRecord;
  readonly validate?: (object: KubeObject) => FieldError[];
  /** Checks of the change itself; `validate` runs on updates too. */
  readonly validateUpdate?: (object: KubeObject, old: KubeObject) => FieldError[];
}

export class RuleStrategy extends GenericStrategy {
  constructor(
    definition: ResourceDefinition,
    options: GenericStrategyOptions,
    private readonly rules: TypeRules,
  ) {
    super(definition, options);
  }

  override prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    super.prepareForCreate(object, ctx);
    this.rules.defaults?.(object, this.definition.version);
    if (this.rules.initialStatus) object['status'] = this.rules.initialStatus(this.definition.version);
  }

  override prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource === '') this.rules.defaults?.(object, this.definition.version);
    super.prepareForUpdate(object, old, ctx);
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    return this.rules.validate?.(object) ?? [];
  }

  override validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource !== '') return [];
    return [...(this.rules.validateUpdate?.(object, old) ?? []), ...(this.rules.validate?.(object) ?? [])];
  }
}
