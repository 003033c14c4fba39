/**
 * PersistentVolumeClaims (core v1; upstream pkg/registry/core/persistentvolumeclaim and
 * SetDefaults_PersistentVolumeClaim). The kubernetes.io/pvc-protection finalizer that upstream's
 * admission adds is left out: without the controller that removes it, deletes would never finish.
 */
import type { FieldError } from '../../api/errors.js';
import { jsonEqual, type KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { fieldForbidden, fieldRequired } from '../../validation/field-errors.js';
import { asRecord, defaultTo, recordAt, type JsonRecord } from './json-access.js';
import { GenericStrategy } from './generic-strategy.js';

/** The claim spec defaults, shared with StatefulSet claim templates. */
export function defaultClaimSpec(spec: JsonRecord): void {
  defaultTo(spec, 'volumeMode', 'Filesystem');
}

export class PersistentVolumeClaimStrategy extends GenericStrategy {
  override prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    super.prepareForCreate(object, ctx);
    defaultClaimSpec(asRecord(object, 'spec'));
    object['status'] = { phase: 'Pending' };
  }

  override prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource === '') defaultClaimSpec(asRecord(object, 'spec'));
    super.prepareForUpdate(object, old, ctx);
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    const spec = asRecord(object, 'spec');
    const errors: FieldError[] = [];
    const modes = spec['accessModes'];
    if (!Array.isArray(modes) || modes.length === 0) errors.push(fieldRequired('spec.accessModes', 'at least 1 access mode is required'));
    if (!spec['dataSourceRef'] && !spec['dataSource'] && recordAt(recordAt(spec, 'resources'), 'requests')?.['storage'] === undefined) {
      errors.push(fieldRequired('spec.resources[storage]'));
    }
    return errors;
  }

  override validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource !== '') return [];
    const errors = this.validate(object, ctx);
    if (!jsonEqual(withoutMutable(asRecord(object, 'spec')), withoutMutable(recordAt(old, 'spec') ?? {}))) {
      errors.push(fieldForbidden('spec', 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'));
    }
    return errors;
  }
}

/** The claim spec without what an update may change (size requests, attributes class, the binding). */
function withoutMutable(spec: JsonRecord): JsonRecord {
  const copy = structuredClone(spec);
  const resources = recordAt(copy, 'resources');
  if (resources) delete resources['requests'];
  delete copy['volumeAttributesClassName'];
  if (spec['volumeName'] === undefined || spec['volumeName'] === '') delete copy['volumeName'];
  return copy;
}
