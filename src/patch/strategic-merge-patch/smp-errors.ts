/**
 * How a strategic merge patch fails, in upstream's words and statuses. Upstream's patch handler maps
 * five sentinel errors to 400 and two to 422 (interpretStrategicMergePatchError); every other merge
 * error is a plain Go error, which its error writer answers with 500 and no reason, the message
 * passed through (so kubectl prints `Error from server: map: map[...] does not contain declared
 * merge key: name`).
 */
import { ApiError } from '../../api/errors.js';
import { invalidPatch, patchNotApplicable } from '../patch-errors.js';
import { MAP_TYPE, formatGo, reflectTypeName, type GoType } from './go-value.js';

/** Upstream's sentinel texts that become 400 BadRequest. */
export const BadFormat = {
  primitiveList: 'invalid patch format of primitive list',
  retainKeys: 'invalid patch format of retainKeys',
  setElementOrder: 'invalid patch format of setElementOrder list',
} as const;

/** 400 BadRequest with one of upstream's {@link BadFormat} texts. */
export function badPatchFormat(message: (typeof BadFormat)[keyof typeof BadFormat]): ApiError {
  return invalidPatch(message);
}

/** 422 with upstream's fixed message for a list nested directly in a merged list. */
export function listOfLists(): ApiError {
  return patchNotApplicable('lists of lists are not supported');
}

/** 500 without a reason: what upstream answers for a merge error it does not classify. */
export function mergeFailure(message: string): ApiError {
  return new ApiError(500, '', message);
}

/** `map: map[image:x] does not contain declared merge key: name`. */
export function noMergeKey(map: unknown, mergeKey: string): ApiError {
  return mergeFailure(`map: ${formatGo(map)} does not contain declared merge key: ${mergeKey}`);
}

/** `expected a map[string]interface {}, but received a string`. */
export function badArgType(expected: GoType, actual: unknown): ApiError {
  return mergeFailure(`expected a ${expected}, but received a ${reflectTypeName(actual)}`);
}

/** A map that must be a map (upstream's type assertion failed). */
export function notAMap(actual: unknown): ApiError {
  return badArgType(MAP_TYPE, actual);
}

/** `unknown patch type: foo in map: map[$patch:foo name:a]`. */
export function unknownPatchType(directive: unknown, map: unknown): ApiError {
  return mergeFailure(`unknown patch type: ${formatGo(directive, 's')} in map: ${formatGo(map)}`);
}
