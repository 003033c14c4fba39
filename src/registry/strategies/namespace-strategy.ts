/**
 * Namespaces (upstream pkg/registry/core/namespace). A namespace is born Active with the
 * `kubernetes` finalizer in spec.finalizers; the namespace controller empties that list through the
 * `finalize` subresource once everything inside is gone, and only then may the object go away.
 */
import { forbidden, type FieldError } from '../../api/errors.js';
import { metaOf, type KubeObject } from '../object.js';
import type { StrategyContext } from '../strategy.js';
import { fieldInvalid } from '../../validation/field-errors.js';
import { GenericStrategy } from './generic-strategy.js';
import { asRecord, asStringArray } from './json-access.js';

/** The finalizer the namespace controller owns. */
export const KUBERNETES_FINALIZER = 'kubernetes';
/** Label every namespace carries with its own name, so selectors can pick namespaces by name. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';
/** Namespaces the server needs; upstream refuses to delete them. */
const UNDELETABLE = new Set(['default', 'kube-system', 'kube-public']);
/** Finalizer names valid without a "/" (upstream's standard finalizers). */
const STANDARD_FINALIZERS = new Set([KUBERNETES_FINALIZER, 'orphan', 'foregroundDeletion']);

export class NamespaceStrategy extends GenericStrategy {
  override prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    super.prepareForCreate(object, ctx);
    object['status'] = { phase: 'Active' };
    const spec = asRecord(object, 'spec');
    const finalizers = asStringArray(spec['finalizers']);
    if (!finalizers.includes(KUBERNETES_FINALIZER)) finalizers.push(KUBERNETES_FINALIZER);
    spec['finalizers'] = finalizers;
    labelWithName(object);
  }

  override prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource === 'finalize') {
      const finalizers = asRecord(object, 'spec')['finalizers'];
      keepAllButFinalizers(object, old);
      if (finalizers === undefined) delete asRecord(object, 'spec')['finalizers'];
      else asRecord(object, 'spec')['finalizers'] = finalizers;
      return;
    }
    if (ctx.subresource === 'status') {
      this.keepAllButStatus(object, old);
      return;
    }
    const oldSpec = asRecord(structuredClone(old), 'spec');
    const spec = asRecord(object, 'spec');
    if (oldSpec['finalizers'] === undefined) delete spec['finalizers'];
    else spec['finalizers'] = oldSpec['finalizers'];
    if (old['status'] === undefined) delete object['status'];
    else object['status'] = old['status'];
    labelWithName(object);
  }

  override validate(object: KubeObject, _ctx: StrategyContext): FieldError[] {
    return validateFinalizers(object);
  }

  override validateUpdate(object: KubeObject, _old: KubeObject, _ctx: StrategyContext): FieldError[] {
    return validateFinalizers(object);
  }

  override hasPendingFinalizers(object: KubeObject): boolean {
    const spec = object['spec'];
    if (typeof spec !== 'object' || spec === null) return false;
    return asStringArray((spec as Record<string, unknown>)['finalizers']).length > 0;
  }

  override prepareForDeletion(object: KubeObject): void {
    asRecord(object, 'status')['phase'] = 'Terminating';
  }

  /** Throws 403 for the namespaces the server itself needs. */
  checkDelete(object: KubeObject): void {
    const name = metaOf(object).name ?? '';
    if (UNDELETABLE.has(name)) {
      throw forbidden(`namespaces "${name}" is forbidden: this namespace may not be deleted`, { name, kind: 'namespaces' });
    }
  }
}

function labelWithName(object: KubeObject): void {
  const meta = metaOf(object);
  if (!meta.name) return;
  meta.labels = { ...(meta.labels ?? {}), [NAMESPACE_NAME_LABEL]: meta.name };
}

/** The finalize subresource writes spec.finalizers and nothing else. */
function keepAllButFinalizers(object: KubeObject, old: KubeObject): void {
  const copy = structuredClone(old);
  for (const key of Object.keys(object)) if (key !== 'metadata') delete object[key];
  for (const key of Object.keys(copy)) if (key !== 'metadata') object[key] = copy[key];
  const meta = metaOf(object);
  const oldMeta = metaOf(copy);
  for (const field of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
    if (oldMeta[field] === undefined) delete meta[field];
    else meta[field] = oldMeta[field] as never;
  }
}

function validateFinalizers(object: KubeObject): FieldError[] {
  const spec = object['spec'];
  if (typeof spec !== 'object' || spec === null) return [];
  const errors: FieldError[] = [];
  asStringArray((spec as Record<string, unknown>)['finalizers']).forEach((name) => {
    if (!name.includes('/') && !STANDARD_FINALIZERS.has(name)) {
      errors.push(fieldInvalid('spec.finalizers', name, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errors;
}
