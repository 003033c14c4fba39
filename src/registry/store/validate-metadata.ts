/**
 * The metadata rules every type shares (upstream's ValidateObjectMetaAccessor and its update
 * form), with the type's own name rule from its strategy.
 */
import type { FieldError } from '../../api/errors.js';
import { validateObjectMeta } from '../../validation/object-meta.js';
import { validateObjectMetaUpdate } from '../../validation/object-meta-update.js';
import type { ObjectMetaInput } from '../../validation/metadata-input.js';
import { metaOf, type KubeObject } from '../object.js';
import type { StoreContext } from './store-context.js';

/** Field errors of `object`'s metadata; `old` is the stored object for updates. */
export function validateMetadata(ctx: StoreContext, object: KubeObject, old: KubeObject | undefined): FieldError[] {
  const meta = metaOf(object) as ObjectMetaInput;
  const errors = validateObjectMeta(meta, {
    nameValidator: (name, prefix) => ctx.strategy.validateName(name, prefix),
    namespaced: ctx.definition.namespaced,
  });
  if (old !== undefined) errors.push(...validateObjectMetaUpdate(meta, metaOf(old) as ObjectMetaInput));
  return errors;
}
