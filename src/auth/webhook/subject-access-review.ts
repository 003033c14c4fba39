/**
 * The SubjectAccessReview the authorization webhook exchanges, as upstream builds and reads it.
 * The spec is built in v1's shape (also the cache key, as upstream keys on it); v1beta1 differs
 * only in its apiVersion and in naming the groups `group`. Empty fields are left out, as Go's
 * `omitempty` does, and keys keep Go's field order.
 */
import { escapeLikeGo } from '../../serialization/json-encode.js';
import { reviewStatusOf } from './review-status.js';
import type { AuthorizationAttributes } from '../authorizer.js';

/** The review versions upstream can send: --authorization-webhook-version. */
export const REVIEW_VERSIONS: readonly string[] = ['v1', 'v1beta1'];

/** What the webhook answered, as upstream's SubjectAccessReviewStatus. */
export interface ReviewStatus {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
  readonly evaluationError: string;
}

type Json = Record<string, unknown>;

/** The review's spec in v1's shape, with Go's field order and omissions. */
export function reviewSpec(attributes: AuthorizationAttributes): Json {
  const a = attributes;
  const target = a.isResourceRequest
    ? { resourceAttributes: omitEmpty({ namespace: a.namespace, verb: a.verb, group: a.apiGroup, version: a.apiVersion, resource: a.resource, subresource: a.subresource, name: a.name }) }
    : { nonResourceAttributes: omitEmpty({ path: a.path, verb: a.verb }) };
  const { user } = a;
  return {
    ...target,
    ...(user.name !== '' ? { user: user.name } : {}),
    ...(user.groups.length > 0 ? { groups: [...user.groups] } : {}),
    ...(user.extra !== undefined && Object.keys(user.extra).length > 0 ? { extra: sortedKeys(user.extra) } : {}),
    ...(user.uid ? { uid: user.uid } : {}),
  };
}

/** The request body for `version` (v1 or v1beta1), as Go encodes the object. */
export function reviewBody(spec: Json, version: string): string {
  const { groups, ...rest } = spec;
  const versioned = version === 'v1beta1' && groups !== undefined ? renameGroups(rest, groups) : spec;
  const review = {
    kind: 'SubjectAccessReview',
    apiVersion: `authorization.k8s.io/${version}`,
    metadata: { creationTimestamp: null },
    spec: versioned,
    status: { allowed: false },
  };
  return escapeLikeGo(JSON.stringify(review));
}

/** v1beta1 names the list `group`, in the same place of the spec. */
function renameGroups(rest: Json, groups: unknown): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries({ ...rest, groups })) out[key === 'groups' ? 'group' : key] = value;
  const order = ['resourceAttributes', 'nonResourceAttributes', 'user', 'group', 'extra', 'uid'];
  return Object.fromEntries(order.filter((k) => k in out).map((k) => [k, out[k]]));
}

/**
 * The status of the webhook's answer. Throws when the answer is not a JSON object or a status
 * field has the wrong type, as decoding it into the Go type would fail.
 */
export function parseReviewStatus(text: string): ReviewStatus {
  const status = reviewStatusOf(text, 'SubjectAccessReview');
  const field = <T>(name: string, type: string, zero: T): T => {
    const value = status[name];
    if (value === undefined || value === null) return zero;
    if (typeof value !== type) throw new Error(`decoding the webhook's SubjectAccessReview: status.${name} is not a ${type}`);
    return value as T;
  };
  return { allowed: field('allowed', 'boolean', false), denied: field('denied', 'boolean', false), reason: field('reason', 'string', ''), evaluationError: field('evaluationError', 'string', '') };
}

function omitEmpty(fields: Record<string, string>): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''));
}

/** Go writes a map's keys sorted. */
function sortedKeys<V>(map: Readonly<Record<string, V>>): Record<string, V> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
