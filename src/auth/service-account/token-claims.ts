/**
 * The claims of a service account token, as upstream's serviceaccount.Claims writes them: the
 * registered ones (iss, sub, aud, exp, nbf, iat, jti) and the private `kubernetes.io` claim naming
 * the namespace, the service account and the object the token is bound to. Keys are in the order
 * Go's encoder gives them once go-jose has merged the claims into a map: sorted.
 */
import { randomUUID } from 'node:crypto';
import { serviceAccountUserName } from '../service-account-user.js';
import { isPlainObject } from '../../util/plain-object.js';

export const PRIVATE_CLAIM = 'kubernetes.io';

/** An object a token is bound to, and which must still exist for the token to be valid. */
export interface BoundObject {
  readonly kind: 'Pod' | 'Secret' | 'Node';
  readonly name: string;
  readonly uid: string;
}

export interface ServiceAccountRef {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

export interface TokenSubject {
  readonly serviceAccount: ServiceAccountRef;
  readonly boundTo?: BoundObject;
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
}

export interface PrivateClaims {
  readonly namespace: string;
  readonly serviceAccount: { readonly name: string; readonly uid: string };
  readonly pod?: { readonly name: string; readonly uid: string };
  readonly secret?: { readonly name: string; readonly uid: string };
  readonly node?: { readonly name: string; readonly uid: string };
}


/** The claims of a new token issued by `issuer` at `nowSeconds`. */
export function tokenClaims(issuer: string, subject: TokenSubject, nowSeconds: number): Record<string, unknown> {
  const { serviceAccount: sa, boundTo } = subject;
  const bound = boundTo ? { [boundTo.kind.toLowerCase()]: { name: boundTo.name, uid: boundTo.uid } } : {};
  // The bound object's key (node, pod or secret) sorts between namespace and serviceaccount.
  return {
    aud: [...subject.audiences],
    exp: nowSeconds + subject.expirationSeconds,
    iat: nowSeconds,
    iss: issuer,
    jti: randomUUID(),
    [PRIVATE_CLAIM]: { namespace: sa.namespace, ...bound, serviceaccount: { name: sa.name, uid: sa.uid } },
    nbf: nowSeconds,
    sub: serviceAccountUserName(sa.namespace, sa.name),
  };
}

/** The private claims of a verified token; undefined when they do not name a service account. */
export function privateClaimsOf(payload: Record<string, unknown>): PrivateClaims | undefined {
  const k = payload[PRIVATE_CLAIM];
  if (!isPlainObject(k) || typeof k['namespace'] !== 'string') return undefined;
  const serviceAccount = nameAndUid(k['serviceaccount']);
  if (serviceAccount === undefined) return undefined;
  const pod = nameAndUid(k['pod']);
  const secret = nameAndUid(k['secret']);
  const node = nameAndUid(k['node']);
  return { namespace: k['namespace'], serviceAccount, ...(pod ? { pod } : {}), ...(secret ? { secret } : {}), ...(node ? { node } : {}) };
}

function nameAndUid(value: unknown): { name: string; uid: string } | undefined {
  if (!isPlainObject(value) || typeof value['name'] !== 'string' || typeof value['uid'] !== 'string') return undefined;
  return { name: value['name'], uid: value['uid'] };
}
