/**
 * The 403 an admission plugin answers when it refuses a request (upstream's admission.NewForbidden):
 * `pods "p" is forbidden: <why>`, or `pods is forbidden: <why>` when the request names no object.
 */
import { ApiError, forbiddenOn, type ResourceRef } from '../api/errors.js';

/** A refusal of the request on `ref` for the reason `why`; a 403 given as the reason stands as it is. */
export function admissionForbidden(ref: ResourceRef, why: string | ApiError): ApiError {
  if (why instanceof ApiError && why.code === 403) return why;
  return forbiddenOn(ref, typeof why === 'string' ? why : why.message);
}
