/** Small predicates over ApiErrors used where a handler tolerates one kind of failure. */
import { ApiError } from '../api/errors.js';

export function isApiNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 404;
}
