/**
 * The metadata rules every type shares, applied after the strategy prepared the object: a name
 * (valid for the type), and on update the fields that may never change.
 */
import type { FieldError } from '../../api/errors.js';
import { metaOf, type KubeObject } from '../object.js';
import type { StoreContext } from './store-context.js';

function invalidValue(field: string, value: unknown, message: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value)}: ${message}` };
}

/** Field errors of `object`'s metadata; `old` is the stored object for updates. */
export function validateMetadata(ctx: StoreContext, object: KubeObject, old: KubeObject | undefined): FieldError[] {
  const meta = metaOf(object);
  const errors: FieldError[] = [];
  if (!meta.name) {
    errors.push({ type: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' });
  } else {
    for (const message of ctx.strategy.validateName(meta.name)) errors.push(invalidValue('metadata.name', meta.name, message));
  }
  if (old !== undefined) {
    const oldMeta = metaOf(old);
    for (const field of ['name', 'namespace', 'uid', 'creationTimestamp'] as const) {
      if ((meta[field] ?? '') !== (oldMeta[field] ?? '')) {
        errors.push(invalidValue(`metadata.${field}`, meta[field] ?? '', 'field is immutable'));
      }
    }
  }
  return errors;
}
