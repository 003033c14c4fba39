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

/**
 * A generateName gets a random suffix, so a trailing dash is fine: upstream checks the prefix with
 * its last two characters replaced by `a`, which decides which prefixes pass.
 */
function asCheckableName(name: string, prefix: boolean): string {
  return prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** Field errors of `object`'s metadata; `old` is the stored object for updates. */
export function validateMetadata(ctx: StoreContext, object: KubeObject, old: KubeObject | undefined): FieldError[] {
  const meta = metaOf(object) as ObjectMetaInput;
  const errors = validateObjectMeta(meta, {
    nameValidator: (name, prefix) => ctx.strategy.validateName(asCheckableName(name, prefix)),
    namespaced: ctx.definition.namespaced,
  });
  if (old !== undefined) errors.push(...validateObjectMetaUpdate(meta, metaOf(old) as ObjectMetaInput));
  return errors;
}
