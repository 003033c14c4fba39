/** The `status` of a review a webhook answered (SubjectAccessReview, TokenReview), read as decoding it into the Go type would. */
import { isPlainObject } from '../../util/plain-object.js';

/** The answer's status object ({} when it has none). Throws, naming `kind`, when the answer is not JSON or the status not an object. */
export function reviewStatusOf(text: string, kind: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`decoding the webhook's ${kind}: ${(err as Error).message}`);
  }
  const status = (isPlainObject(doc) ? doc['status'] : undefined) ?? {};
  if (!isPlainObject(status)) throw new Error(`decoding the webhook's ${kind}: status is not an object`);
  return status;
}
