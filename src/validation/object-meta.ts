/**
 * ObjectMeta on create, as upstream's ValidateObjectMetaAccessor: name (by the type's rule) or
 * generateName, namespace present for namespaced types and absent otherwise, generation not
 * negative, then labels, annotations, ownerReferences, finalizers and managedFields. Runs after
 * generateName has produced a name.
 */
import type { FieldError } from '../api/errors.js';
import { fieldForbidden, fieldInvalid, fieldRequired } from './field-errors.js';
import { validateFinalizers } from './finalizers.js';
import { validateAnnotations, validateLabels } from './labels-annotations.js';
import { validateManagedFields } from './managed-fields.js';
import type { ObjectMetaInput } from './metadata-input.js';
import { validateNamespaceName } from './name-validators.js';
import type { NameValidator } from './name-validators.js';
import { validateOwnerReferences } from './owner-references.js';

export interface ObjectMetaRules {
  /** The type's rule for metadata.name; also checks generateName as a prefix. */
  readonly nameValidator: NameValidator;
  /** Namespaced types need metadata.namespace; cluster-scoped types must not have one. */
  readonly namespaced: boolean;
}

/** `must be greater than or equal to 0`. */
export const IS_NEGATIVE_ERROR = 'must be greater than or equal to 0';

function validateName(meta: ObjectMetaInput, nameValidator: NameValidator, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = meta.generateName ?? '';
  if (generateName !== '') {
    for (const msg of nameValidator(generateName, true)) errs.push(fieldInvalid(`${path}.generateName`, generateName, msg));
  }
  const name = meta.name ?? '';
  if (name === '') errs.push(fieldRequired(`${path}.name`, 'name or generateName is required'));
  else for (const msg of nameValidator(name, false)) errs.push(fieldInvalid(`${path}.name`, name, msg));
  return errs;
}

function validateNamespace(meta: ObjectMetaInput, namespaced: boolean, path: string): FieldError[] {
  const namespace = meta.namespace ?? '';
  if (!namespaced) return namespace === '' ? [] : [fieldForbidden(`${path}.namespace`, 'not allowed on this type')];
  if (namespace === '') return [fieldRequired(`${path}.namespace`)];
  return validateNamespaceName(namespace, false).map((msg) => fieldInvalid(`${path}.namespace`, namespace, msg));
}

/**
 * Problems with an object's metadata on create, in upstream's order, with paths under `path`
 * (default `metadata`). Empty when valid. Does not modify `meta`.
 */
export function validateObjectMeta(meta: ObjectMetaInput, rules: ObjectMetaRules, path = 'metadata'): FieldError[] {
  const errs = [...validateName(meta, rules.nameValidator, path), ...validateNamespace(meta, rules.namespaced, path)];
  const generation = meta.generation ?? 0;
  if (generation < 0) errs.push(fieldInvalid(`${path}.generation`, generation, IS_NEGATIVE_ERROR));
  errs.push(
    ...validateLabels(meta.labels, `${path}.labels`),
    ...validateAnnotations(meta.annotations, `${path}.annotations`),
    ...validateOwnerReferences(meta.ownerReferences, `${path}.ownerReferences`),
    ...validateFinalizers(meta.finalizers, `${path}.finalizers`),
    ...validateManagedFields(meta.managedFields, `${path}.managedFields`),
  );
  return errs;
}
