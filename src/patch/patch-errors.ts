/**
 * The errors a patch fails with, as upstream returns them. A patch that cannot be applied is a 422
 * whose message says nothing of why: upstream builds it with NewGenericServerResponse, which drops
 * the JSON-patch library's text (see golden patch-422-jsonpatch-test). That text is kept here as
 * the error's `cause`, for the server log.
 */
import { ApiError, badRequest } from '../api/errors.js';

/** Upstream's limit on operations in one JSON patch. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** 422 Invalid with upstream's fixed message and empty details; `reason` is kept as the cause. */
export function patchNotApplicable(reason: string): ApiError {
  const err = new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
  err.cause = new Error(reason);
  return err;
}

/** 400 for a patch body that is not a patch of its kind; `message` is upstream's text. */
export function invalidPatch(message: string): ApiError {
  return badRequest(message);
}

/** 413 for a JSON patch with more than {@link MAX_JSON_PATCH_OPERATIONS} operations. */
export function tooManyOperations(count: number): ApiError {
  return new ApiError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${count}`,
  );
}
