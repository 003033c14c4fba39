/** Who a service account is as a user: upstream's name and groups, the same wherever a request acts as one. */

export const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
export const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';

/** `system:serviceaccount:<namespace>:<name>`: the user name and a token's `sub`. */
export function serviceAccountUserName(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${name}`;
}

/** The groups every service account of `namespace` is in. */
export function serviceAccountGroups(namespace: string): string[] {
  return [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${namespace}`];
}
