/**
 * ReplicaSets (apps/v1; upstream pkg/registry/apps/replicaset and SetDefaults_ReplicaSet).
 */
import type { FieldError } from '../../api/errors.js';
import type { KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { asRecord, defaultTo, recordAt, type JsonRecord } from './json-access.js';
import { defaultPodTemplate } from './pod-spec-defaults.js';
import { selectorImmutable, validateSelectedTemplate } from './workload-validation.js';
import { WorkloadStrategy } from './workload-strategy.js';

export class ReplicaSetStrategy extends WorkloadStrategy {
  protected override applyDefaults(object: KubeObject): void {
    const spec = this.spec(object);
    defaultTo(spec, 'replicas', 1);
    defaultPodTemplate(asRecord(spec, 'template'));
  }

  protected override initialStatus(): JsonRecord {
    return { replicas: 0 };
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    // Upstream's ReplicaSet validation reuses the Deployment wording for an empty selector.
    return validateSelectedTemplate(this.spec(object), {
      kindWord: 'deployment',
      validateLabel: this.validators.dns1123Label,
      restartPolicies: ['Always'],
      invalidSelectorSkipsTemplate: true,
      allowPrivileged: this.containers.allowPrivileged,
    });
  }

  override validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource !== '') return [];
    return [...selectorImmutable(this.spec(object), recordAt(old, 'spec') ?? {}), ...this.validate(object, ctx)];
  }
}
