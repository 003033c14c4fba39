/**
 * The TokenReview a token webhook is sent and what its answer says, as upstream's webhook token
 * authenticator writes and reads them (authentication.k8s.io v1beta1, its default, or v1).
 */
import { escapeLikeGo } from '../../serialization/json-encode.js';
import type { UserInfo } from '../user-info.js';
import { isPlainObject } from '../../util/plain-object.js';
import { reviewStatusOf } from './review-status.js';

export const TOKEN_REVIEW_VERSIONS: readonly string[] = ['v1', 'v1beta1'];

export interface TokenReviewStatus {
  /** The user the webhook says the token names; undefined when it is not authenticated. */
  readonly user: UserInfo | undefined;
  /** The audiences the webhook says the token is good for; none: it did not say. */
  readonly audiences: readonly string[];
  /** Why not, when the webhook said. */
  readonly error: string;
}

type Json = Record<string, unknown>;

/** The review body for `token` and the audiences it is asked about, in upstream's field order and Go's JSON escaping. */
export function tokenReviewBody(token: string, audiences: readonly string[], version: string): string {
  const review = {
    kind: 'TokenReview',
    apiVersion: `authentication.k8s.io/${version}`,
    metadata: { creationTimestamp: null },
    spec: { token, ...(audiences.length > 0 ? { audiences } : {}) },
    status: { user: {} },
  };
  return escapeLikeGo(JSON.stringify(review));
}

/** The status of the webhook's answer; throws when the answer is not a TokenReview's JSON. */
export function parseTokenReviewStatus(text: string): TokenReviewStatus {
  const status = reviewStatusOf(text, 'TokenReview');
  const error = typeof status['error'] === 'string' ? status['error'] : '';
  const audiences = Array.isArray(status['audiences']) ? status['audiences'].filter((a): a is string => typeof a === 'string') : [];
  if (status['authenticated'] !== true) return { user: undefined, audiences, error };
  const u = isPlainObject(status['user']) ? status['user'] : {};
  const name = typeof u['username'] === 'string' ? u['username'] : '';
  const uid = typeof u['uid'] === 'string' && u['uid'] !== '' ? u['uid'] : undefined;
  const groups = Array.isArray(u['groups']) ? u['groups'].filter((g): g is string => typeof g === 'string') : [];
  const extra = isPlainObject(u['extra']) ? stringLists(u['extra']) : undefined;
  return { user: { name, ...(uid ? { uid } : {}), groups, ...(extra ? { extra } : {}) }, audiences, error };
}

function stringLists(value: Json): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(value)) {
    if (Array.isArray(list)) out[key] = list.filter((v): v is string => typeof v === 'string');
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
