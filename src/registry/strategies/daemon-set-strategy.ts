/**
 * DaemonSets (apps/v1; upstream pkg/registry/apps/daemonset and SetDefaults_DaemonSet). Upstream
 * still counts template changes in the deprecated templateGeneration, which v1 shows as the
 * `deprecated.daemonset.template.generation` annotation.
 */
import type { FieldError } from '../../api/errors.js';
import { jsonEqual, metaOf, type KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { asRecord, defaultTo, recordAt, type JsonRecord } from './json-access.js';
import { defaultPodTemplate } from './pod-spec-defaults.js';
import { selectorImmutable, validateSelectedTemplate } from './workload-validation.js';
import { WorkloadStrategy } from './workload-strategy.js';

export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

export class DaemonSetStrategy extends WorkloadStrategy {
  protected override applyDefaults(object: KubeObject): void {
    const spec = this.spec(object);
    const updateStrategy = asRecord(spec, 'updateStrategy');
    defaultTo(updateStrategy, 'type', 'RollingUpdate');
    if (updateStrategy['type'] === 'RollingUpdate') {
      const rollingUpdate = asRecord(updateStrategy, 'rollingUpdate');
      defaultTo(rollingUpdate, 'maxUnavailable', 1);
      defaultTo(rollingUpdate, 'maxSurge', 0);
    }
    defaultTo(spec, 'revisionHistoryLimit', 10);
    defaultPodTemplate(asRecord(spec, 'template'));
  }

  protected override initialStatus(): JsonRecord {
    return { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
  }

  override prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    super.prepareForCreate(object, ctx);
    setTemplateGeneration(object, 1);
  }

  override prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    super.prepareForUpdate(object, old, ctx);
    if (ctx.subresource !== '') return;
    const oldGeneration = Number(metaOf(old).annotations?.[TEMPLATE_GENERATION_ANNOTATION] ?? 0) || 0;
    const changed = !jsonEqual(recordAt(object, 'spec')?.['template'], recordAt(old, 'spec')?.['template']);
    setTemplateGeneration(object, changed ? oldGeneration + 1 : oldGeneration);
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    return validateSelectedTemplate(this.spec(object), { kindWord: 'daemonset', validateLabel: this.validators.dns1123Label, restartPolicies: ['Always'], allowPrivileged: this.containers.allowPrivileged });
  }

  override validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource !== '') return [];
    return [...selectorImmutable(this.spec(object), recordAt(old, 'spec') ?? {}), ...this.validate(object, ctx)];
  }
}

/** The annotation is the server's: clients cannot set it. */
function setTemplateGeneration(object: KubeObject, generation: number): void {
  const meta = metaOf(object);
  if (generation <= 0) {
    if (meta.annotations) delete meta.annotations[TEMPLATE_GENERATION_ANNOTATION];
    return;
  }
  meta.annotations = { ...(meta.annotations ?? {}), [TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
}
