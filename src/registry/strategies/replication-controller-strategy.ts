/**
 * ReplicationControllers (core v1; SetDefaults_ReplicationController): the selector is a plain
 * label map that defaults to the template's labels, as do the controller's own labels.
 */
import type { FieldError } from '../../api/errors.js';
import { metaOf, type KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { fieldInvalid, fieldRequired, goJsonMap } from '../../validation/field-errors.js';
import { defaultTo, isRecord, recordAt, type JsonRecord } from './json-access.js';
import { defaultPodTemplate } from './pod-spec-defaults.js';
import { nonNegative, validateTemplate } from './workload-validation.js';
import { WorkloadStrategy } from './workload-strategy.js';

export class ReplicationControllerStrategy extends WorkloadStrategy {
  protected override applyDefaults(object: KubeObject): void {
    const spec = this.spec(object);
    const template = recordAt(spec, 'template');
    const templateLabels = recordAt(recordAt(template, 'metadata'), 'labels');
    if (templateLabels && Object.keys(templateLabels).length > 0) {
      if (!isRecord(spec['selector']) || Object.keys(spec['selector']).length === 0) spec['selector'] = { ...templateLabels };
      const meta = metaOf(object);
      if (!meta.labels || Object.keys(meta.labels).length === 0) meta.labels = { ...(templateLabels as Record<string, string>) };
    }
    defaultTo(spec, 'replicas', 1);
    if (template) defaultPodTemplate(template);
  }

  protected override initialStatus(): JsonRecord {
    return { replicas: 0 };
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    const spec = this.spec(object);
    const errors: FieldError[] = [];
    const selector = isRecord(spec['selector']) ? spec['selector'] : {};
    if (Object.keys(selector).length === 0) errors.push(fieldRequired('spec.selector'));
    const template = recordAt(spec, 'template');
    if (template) {
      const labels = recordAt(template, 'metadata')?.['labels'];
      const labelSet = isRecord(labels) ? labels : {};
      if (Object.keys(selector).length > 0 && !Object.entries(selector).every(([k, v]) => labelSet[k] === v)) {
        errors.push(fieldInvalid('spec.template.metadata.labels', goJsonMap(labels), '`selector` does not match template `labels`'));
      }
      errors.push(...validateTemplate(template, undefined, 'spec.template', this.rules()));
    }
    errors.push(...nonNegative(spec, 'replicas', 'spec.replicas'));
    return errors;
  }

  override validateUpdate(object: KubeObject, _old: KubeObject, ctx: StrategyContext): FieldError[] {
    return ctx.subresource === '' ? this.validate(object, ctx) : [];
  }

  private rules() {
    return { kindWord: 'replicationcontroller', validateLabel: this.validators.dns1123Label, restartPolicies: ['Always'], allowPrivileged: this.containers.allowPrivileged };
  }
}
