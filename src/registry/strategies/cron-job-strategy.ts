/**
 * CronJobs (batch/v1; upstream pkg/registry/batch/cronjob and SetDefaults_CronJob). The job
 * template gets pod template defaults only: the Job defaults apply when the controller creates
 * each Job.
 */
import type { FieldError } from '../../api/errors.js';
import { metaOf, type KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { fieldInvalid, fieldRequired } from '../../validation/field-errors.js';
import { asRecord, defaultTo, recordAt, stringAt } from './json-access.js';
import { defaultPodTemplate } from './pod-spec-defaults.js';
import { nonNegative, validateTemplate } from './workload-validation.js';
import { WorkloadStrategy } from './workload-strategy.js';

/** Job names add an 11-character suffix to the CronJob's name and must stay DNS labels. */
const MAX_NAME_LENGTH = 52;

export class CronJobStrategy extends WorkloadStrategy {
  protected override applyDefaults(object: KubeObject): void {
    const spec = this.spec(object);
    defaultTo(spec, 'concurrencyPolicy', 'Allow');
    defaultTo(spec, 'suspend', false);
    defaultTo(spec, 'successfulJobsHistoryLimit', 3);
    defaultTo(spec, 'failedJobsHistoryLimit', 1);
    const jobTemplate = asRecord(spec, 'jobTemplate');
    // Go always serializes the (struct) metadata of the job template.
    defaultTo(jobTemplate, 'metadata', {});
    defaultPodTemplate(asRecord(asRecord(jobTemplate, 'spec'), 'template'));
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    const spec = this.spec(object);
    const errors: FieldError[] = [];
    const name = metaOf(object).name ?? '';
    if (name.length > MAX_NAME_LENGTH) errors.push(fieldInvalid('metadata.name', name, `must be no more than ${MAX_NAME_LENGTH} characters`));
    if (!stringAt(spec, 'schedule')) errors.push(fieldRequired('spec.schedule'));
    const jobSpec = recordAt(recordAt(spec, 'jobTemplate'), 'spec') ?? {};
    errors.push(
      ...validateTemplate(recordAt(jobSpec, 'template'), undefined, 'spec.jobTemplate.spec.template', {
        kindWord: 'cronjob',
        validateLabel: this.validators.dns1123Label,
        restartPolicies: ['OnFailure', 'Never'],
        allowPrivileged: this.containers.allowPrivileged,
      }),
    );
    for (const field of ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
      errors.push(...nonNegative(spec, field, `spec.${field}`));
    }
    return errors;
  }

  override validateUpdate(object: KubeObject, _old: KubeObject, ctx: StrategyContext): FieldError[] {
    return ctx.subresource === '' ? this.validate(object, ctx) : [];
  }
}
