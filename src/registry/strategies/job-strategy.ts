/**
 * Jobs (batch/v1; upstream pkg/registry/batch/job and SetDefaults_Job). Unless the client manages
 * the selector itself, the server selects the job's pods by its uid and labels the template to
 * match, so one job never adopts another's pods.
 */
import type { FieldError } from '../../api/errors.js';
import { jsonEqual, metaOf, type KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { fieldImmutable, fieldInvalid, fieldRequired, goJsonMap } from '../../validation/field-errors.js';
import { jsonLabelSelector, selectorMatches } from './label-selector.js';
import { asRecord, defaultTo, isRecord, recordAt, recordsAt, type JsonRecord } from './json-access.js';
import { defaultPodTemplate } from './pod-spec-defaults.js';
import { nonNegative, selectorImmutable, validateSelectedTemplate } from './workload-validation.js';
import { WorkloadStrategy } from './workload-strategy.js';

export const JOB_NAME_LABELS = ['job-name', 'batch.kubernetes.io/job-name'];
export const CONTROLLER_UID_LABELS = ['controller-uid', 'batch.kubernetes.io/controller-uid'];
const MAX_INT32 = 2147483647;

export class JobStrategy extends WorkloadStrategy {
  protected override applyDefaults(object: KubeObject): void {
    defaultJobSpec(this.spec(object));
  }

  override prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    super.prepareForCreate(object, ctx);
    const spec = this.spec(object);
    if (spec['manualSelector'] !== true) generateSelector(object, spec);
    // Upstream's defaults copy the template labels to a job without labels of its own.
    const templateLabels = recordAt(recordAt(spec, 'template'), 'metadata')?.['labels'];
    const meta = metaOf(object);
    if (isRecord(templateLabels) && (!meta.labels || Object.keys(meta.labels).length === 0)) {
      meta.labels = { ...(templateLabels as Record<string, string>) };
    }
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    const spec = this.spec(object);
    const errors = validateSelectedTemplate(spec, { kindWord: 'job', validateLabel: this.validators.dns1123Label, restartPolicies: ['OnFailure', 'Never'], allowPrivileged: this.containers.allowPrivileged });
    for (const field of ['parallelism', 'completions', 'backoffLimit', 'activeDeadlineSeconds', 'ttlSecondsAfterFinished']) {
      errors.push(...nonNegative(spec, field, `spec.${field}`));
    }
    if (spec['manualSelector'] !== true) errors.push(...validateGeneratedSelector(object, spec));
    return errors;
  }

  override validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource !== '') return [];
    const spec = this.spec(object);
    const oldSpec = recordAt(old, 'spec') ?? {};
    const errors = [...this.validate(object, ctx), ...selectorImmutable(spec, oldSpec)];
    if (!jsonEqual(spec['completions'], oldSpec['completions']) && spec['completionMode'] !== 'Indexed') {
      errors.push(fieldImmutable('spec.completions', spec['completions'] ?? null));
    }
    // A suspended job that never started may still have its template adjusted (upstream allows
    // scheduling directives there); a running job's pods were made from the template it has.
    const neverStarted = spec['suspend'] === true && recordAt(old, 'status')?.['startTime'] === undefined;
    if (!neverStarted && !jsonEqual(spec['template'], oldSpec['template'])) {
      errors.push(fieldInvalid('spec.template', templateSummary(spec['template']), 'field is immutable'));
    }
    return errors;
  }
}

/** SetDefaults_Job, without the label copy (which waits for the generated selector). */
export function defaultJobSpec(spec: JsonRecord): void {
  if (spec['completions'] == null && spec['parallelism'] == null) {
    spec['completions'] = 1;
    spec['parallelism'] = 1;
  }
  defaultTo(spec, 'parallelism', 1);
  defaultTo(spec, 'backoffLimit', spec['backoffLimitPerIndex'] != null ? MAX_INT32 : 6);
  defaultTo(spec, 'completionMode', 'NonIndexed');
  defaultTo(spec, 'suspend', false);
  const failurePolicy = recordAt(spec, 'podFailurePolicy');
  for (const rule of recordsAt(failurePolicy, 'rules')) {
    for (const pattern of recordsAt(rule, 'onPodConditions')) defaultTo(pattern, 'status', 'True');
  }
  defaultTo(spec, 'podReplacementPolicy', failurePolicy ? 'Failed' : 'TerminatingOrFailed');
  defaultTo(spec, 'manualSelector', false);
  defaultPodTemplate(asRecord(spec, 'template'));
}

/** Labels the template with the job's name and uid (keeping labels the client set) and selects the uid. */
function generateSelector(object: KubeObject, spec: JsonRecord): void {
  const meta = metaOf(object);
  const templateMeta = asRecord(asRecord(spec, 'template'), 'metadata');
  const labels = asRecord(templateMeta, 'labels');
  for (const key of JOB_NAME_LABELS) defaultTo(labels, key, meta.name ?? '');
  for (const key of CONTROLLER_UID_LABELS) defaultTo(labels, key, meta.uid ?? '');
  const matchLabels = asRecord(asRecord(spec, 'selector'), 'matchLabels');
  defaultTo(matchLabels, CONTROLLER_UID_LABELS[1]!, meta.uid ?? '');
}

/** Upstream prints its internal Go struct here (as JSON since 1.34, with Go's field names); ours carries the same facts. */
function templateSummary(template: unknown): unknown {
  return template ?? null;
}

/**
 * With a generated selector, the template must carry the generated labels and the selector must
 * select the job's uid (a client-set label or selector could have defeated the generation).
 */
function validateGeneratedSelector(object: KubeObject, spec: JsonRecord): FieldError[] {
  const meta = metaOf(object);
  const errors: FieldError[] = [];
  const labels = recordAt(recordAt(spec, 'template'), 'metadata')?.['labels'];
  const labelSet = isRecord(labels) ? labels : {};
  for (const [key, expected] of [[CONTROLLER_UID_LABELS[0]!, meta.uid ?? ''], [JOB_NAME_LABELS[0]!, meta.name ?? '']] as const) {
    const path = `spec.template.metadata.labels[${key}]`;
    if (labelSet[key] === undefined) errors.push(fieldRequired(path));
    else if (labelSet[key] !== expected) errors.push(fieldInvalid(path, goJsonMap(labels), `must be '${expected}'`));
  }
  const selector = recordAt(spec, 'selector') ?? {};
  if (!selectorMatches(selector, { [CONTROLLER_UID_LABELS[1]!]: meta.uid ?? '' })) {
    errors.push(fieldInvalid('spec.selector', jsonLabelSelector(selector), '`selector` not auto-generated'));
  }
  return errors;
}
