/**
 * StatefulSets (apps/v1; upstream pkg/registry/apps/statefulset and SetDefaults_StatefulSet).
 * Most of the spec is fixed after create, because pods and their volumes were made from it.
 */
import type { FieldError } from '../../api/errors.js';
import { jsonEqual, type KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { fieldForbidden } from '../../validation/field-errors.js';
import { asRecord, defaultTo, recordAt, recordsAt, type JsonRecord } from './json-access.js';
import { defaultPodTemplate } from './pod-spec-defaults.js';
import { defaultClaimSpec } from './persistent-volume-claim-strategy.js';
import { validateSelectedTemplate } from './workload-validation.js';
import { WorkloadStrategy } from './workload-strategy.js';

/** Spec fields an update may change. */
const UPDATABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

export class StatefulSetStrategy extends WorkloadStrategy {
  protected override applyDefaults(object: KubeObject): void {
    const spec = this.spec(object);
    defaultTo(spec, 'podManagementPolicy', 'OrderedReady');
    const updateStrategy = asRecord(spec, 'updateStrategy');
    defaultTo(updateStrategy, 'type', 'RollingUpdate');
    if (updateStrategy['type'] === 'RollingUpdate') defaultTo(asRecord(updateStrategy, 'rollingUpdate'), 'partition', 0);
    const retention = asRecord(spec, 'persistentVolumeClaimRetentionPolicy');
    defaultTo(retention, 'whenDeleted', 'Retain');
    defaultTo(retention, 'whenScaled', 'Retain');
    defaultTo(spec, 'replicas', 1);
    defaultTo(spec, 'revisionHistoryLimit', 10);
    defaultPodTemplate(asRecord(spec, 'template'));
    // Upstream defaults claim templates as whole claims, status included.
    for (const claim of recordsAt(spec, 'volumeClaimTemplates')) {
      defaultClaimSpec(asRecord(claim, 'spec'));
      defaultTo(asRecord(claim, 'status'), 'phase', 'Pending');
    }
  }

  protected override initialStatus(): JsonRecord {
    return { replicas: 0, availableReplicas: 0 };
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    return validateSelectedTemplate(this.spec(object), { kindWord: 'statefulset', validateLabel: this.validators.dns1123Label, restartPolicies: ['Always'], allowPrivileged: this.containers.allowPrivileged });
  }

  override validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource !== '') return [];
    const errors = this.validate(object, ctx);
    const spec = { ...this.spec(object) };
    const oldSpec = { ...(recordAt(old, 'spec') ?? {}) };
    for (const field of UPDATABLE) {
      delete spec[field];
      delete oldSpec[field];
    }
    if (!jsonEqual(spec, oldSpec)) {
      errors.push(
        fieldForbidden(
          'spec',
          "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', " +
            "'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ),
      );
    }
    return errors;
  }
}
