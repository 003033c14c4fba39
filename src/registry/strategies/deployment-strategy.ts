/**
 * Deployments (apps/v1; upstream pkg/registry/apps/deployment and SetDefaults_Deployment).
 */
import type { FieldError } from '../../api/errors.js';
import type { KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { fieldForbidden, fieldInvalid } from '../../validation/field-errors.js';
import { asRecord, defaultTo, recordAt, stringAt, type JsonRecord } from './json-access.js';
import { defaultPodTemplate } from './pod-spec-defaults.js';
import { selectorImmutable, validateSelectedTemplate } from './workload-validation.js';
import { WorkloadStrategy } from './workload-strategy.js';

export class DeploymentStrategy extends WorkloadStrategy {
  protected override applyDefaults(object: KubeObject): void {
    const spec = this.spec(object);
    defaultTo(spec, 'replicas', 1);
    const strategy = asRecord(spec, 'strategy');
    defaultTo(strategy, 'type', 'RollingUpdate');
    if (strategy['type'] === 'RollingUpdate') {
      const rollingUpdate = asRecord(strategy, 'rollingUpdate');
      defaultTo(rollingUpdate, 'maxUnavailable', '25%');
      defaultTo(rollingUpdate, 'maxSurge', '25%');
    }
    defaultTo(spec, 'revisionHistoryLimit', 10);
    defaultTo(spec, 'progressDeadlineSeconds', 600);
    defaultPodTemplate(asRecord(spec, 'template'));
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    const spec = this.spec(object);
    return [...validateSelectedTemplate(spec, this.rules()), ...validateStrategy(spec)];
  }

  override validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource !== '') return [];
    const spec = this.spec(object);
    return [...selectorImmutable(spec, recordAt(old, 'spec') ?? {}), ...this.validate(object, ctx)];
  }

  private rules() {
    return { kindWord: 'deployment', validateLabel: this.validators.dns1123Label, restartPolicies: ['Always'], invalidSelectorSkipsTemplate: true, allowPrivileged: this.containers.allowPrivileged };
  }
}

/**
 * Recreate takes no rolling-update parameters, and a rolling update must be able to make progress.
 * Upstream prints an IntOrString through its String method, hence the bare value.
 */
function validateStrategy(spec: JsonRecord): FieldError[] {
  const strategy = recordAt(spec, 'strategy');
  const rollingUpdate = recordAt(strategy, 'rollingUpdate');
  if (stringAt(strategy, 'type') === 'Recreate' && rollingUpdate) {
    return [fieldForbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'")];
  }
  if (rollingUpdate && isZero(rollingUpdate['maxUnavailable']) && isZero(rollingUpdate['maxSurge'])) {
    return [fieldInvalid('spec.strategy.rollingUpdate.maxUnavailable', rollingUpdate['maxUnavailable'] ?? null, 'may not be 0 when `maxSurge` is 0')];
  }
  return [];
}

function isZero(value: unknown): boolean {
  return value === 0 || value === '0%' || value === '0';
}
