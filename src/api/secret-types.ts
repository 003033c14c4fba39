/**
 * The built-in Secret types and the keys each requires. The spec spells the vendor domain
 * `cluster.io` where upstream writes `kubernetes.io`; both spellings name the same type, and a
 * message about a required key uses the spelling of the secret's own type.
 */

export const SECRET_TYPE_OPAQUE = 'Opaque';

/** A built-in type in upstream spelling, e.g. "kubernetes.io/tls". */
export type CanonicalSecretType =
  | 'kubernetes.io/service-account-token'
  | 'kubernetes.io/dockercfg'
  | 'kubernetes.io/dockerconfigjson'
  | 'kubernetes.io/basic-auth'
  | 'kubernetes.io/ssh-auth'
  | 'kubernetes.io/tls'
  | 'bootstrap.kubernetes.io/token';

const CLUSTER_DOMAIN = /(^|\.)cluster\.io\//;

/** Whether `type` uses the spec's `cluster.io` spelling. */
export function usesClusterSpelling(type: string): boolean {
  return CLUSTER_DOMAIN.test(type);
}

/** `type` in upstream spelling (`bootstrap.cluster.io/token` → `bootstrap.kubernetes.io/token`). */
export function canonicalSecretType(type: string): string {
  return type.replace(CLUSTER_DOMAIN, '$1kubernetes.io/');
}

/**
 * Writes a `kubernetes.io/...` key in the spelling of `type`, so that a `cluster.io/...` secret is
 * told about `cluster.io/service-account.name`.
 */
export function inSpellingOf(type: string, key: string): string {
  return usesClusterSpelling(type) ? key.replace(/(^|\.)kubernetes\.io\//, '$1cluster.io/') : key;
}

/** The annotation naming the service account of a token secret. */
export const SERVICE_ACCOUNT_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
export const DOCKERCFG_KEY = '.dockercfg';
export const DOCKER_CONFIG_JSON_KEY = '.dockerconfigjson';
export const BASIC_AUTH_USERNAME_KEY = 'username';
export const BASIC_AUTH_PASSWORD_KEY = 'password';
export const SSH_AUTH_PRIVATE_KEY = 'ssh-privatekey';
export const TLS_CERT_KEY = 'tls.crt';
export const TLS_PRIVATE_KEY_KEY = 'tls.key';
