/**
 * `$retainKeys`: the fields a map keeps. kubectl sends it for fields whose strategy includes
 * retainKeys (Deployment spec.strategy, pod volumes), so that switching a union's member clears the
 * old one:
 *
 *   live:  {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}
 *   patch: {$retainKeys: [type], type: Recreate}
 *   →      {type: Recreate}
 *
 * Upstream honours the directive wherever it appears, whatever the field's strategy.
 */
import { goHashKey, type JsonMap } from './go-value.js';
import { DELETE_FROM_PRIMITIVE_LIST, RETAIN_KEYS_DIRECTIVE, SET_ELEMENT_ORDER } from './directives.js';
import { BadFormat, badPatchFormat } from './smp-errors.js';

/**
 * Applies and removes `$retainKeys` of `patch`: deletes the members of `original` it does not
 * list. Both maps are modified. Throws 400 when the directive is not a list or the patch sets a
 * field (non-null, not a directive) that it does not list.
 */
export function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const list = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(list)) throw badPatchFormat(BadFormat.retainKeys);
  const retained = new Set(list.map(goHashKey));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST) || key.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!retained.has(key)) throw badPatchFormat(BadFormat.retainKeys);
  }
  for (const key of Object.keys(original)) {
    if (!retained.has(key)) delete original[key];
  }
}
