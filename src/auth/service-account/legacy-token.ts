/**
 * Legacy service account tokens: the long-lived tokens the token controller writes into Secrets of
 * type kubernetes.io/service-account-token (controllers/service-account-token-controller.ts). Their
 * claims are upstream's LegacyClaims: the issuer `kubernetes/serviceaccount`, the subject, and the
 * account's namespace, name and UID and the Secret's name; no audience and no expiry. They are
 * valid while the Secret exists and still holds the very token, and the account exists with the
 * UID the token names (--service-account-lookup).
 */
import { constantTimeEqual } from '../../util/constant-time.js';
import type { AudienceBoundUser, TokenAuthenticator } from '../bearer-token-authenticator.js';
import type { UserInfo } from '../user-info.js';
import { issuedBy, verifyToken } from './jwt-verification.js';
import type { VerifyingKey } from './signing-keys.js';
import type { ServiceAccountRef } from './token-claims.js';
import type { UidLookup } from './token-authenticator.js';
import { serviceAccountGroups, serviceAccountUserName } from '../service-account-user.js';

export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
const NAMESPACE = 'kubernetes.io/serviceaccount/namespace';
const SECRET_NAME = 'kubernetes.io/serviceaccount/secret.name';
const ACCOUNT_NAME = 'kubernetes.io/serviceaccount/service-account.name';
const ACCOUNT_UID = 'kubernetes.io/serviceaccount/service-account.uid';

/** The claims of the legacy token of `account` kept in Secret `secretName`, sorted as go-jose writes them. */
export function legacyClaims(account: ServiceAccountRef, secretName: string): Record<string, unknown> {
  return {
    iss: LEGACY_ISSUER,
    [NAMESPACE]: account.namespace,
    [SECRET_NAME]: secretName,
    [ACCOUNT_NAME]: account.name,
    [ACCOUNT_UID]: account.uid,
    sub: serviceAccountUserName(account.namespace, account.name),
  };
}

/** The token a Secret of `namespace` holds now (its `data.token`, decoded), or undefined when there is no such Secret. */
export type SecretTokenLookup = (namespace: string, name: string) => Promise<string | undefined>;

export interface LegacyTokenSettings {
  readonly keys: readonly VerifyingKey[];
  /** --api-audiences: a legacy token names none, and is good for these (upstream's implicit audiences). */
  readonly audiences: readonly string[];
  readonly lookup?: { readonly serviceAccount: UidLookup; readonly secretToken: SecretTokenLookup };
  readonly log?: (message: string) => void;
}

export class LegacyServiceAccountTokenAuthenticator implements TokenAuthenticator {
  constructor(private readonly settings: LegacyTokenSettings) {}

  async authenticateTokenFor(token: string, audiences: readonly string[]): Promise<AudienceBoundUser | undefined> {
    const meantFor = audiences.filter((a) => this.settings.audiences.includes(a));
    if (meantFor.length === 0) return undefined;
    const user = await this.authenticateToken(token);
    return user && { user, audiences: meantFor };
  }

  async authenticateToken(token: string): Promise<UserInfo | undefined> {
    if (!issuedBy(token, [LEGACY_ISSUER])) return undefined;
    try {
      const payload = await verifyToken(token, this.settings.keys, { issuer: [LEGACY_ISSUER] });
      const [namespace, secretName, name, uid] = [NAMESPACE, SECRET_NAME, ACCOUNT_NAME, ACCOUNT_UID].map((claim) => {
        const value = payload[claim];
        if (typeof value !== 'string' || value === '') throw new Error(`token has no ${claim} claim`);
        return value;
      }) as [string, string, string, string];
      await this.checkStillValid(token, namespace, secretName, name, uid);
      return {
        name: serviceAccountUserName(namespace, name),
        uid,
        groups: serviceAccountGroups(namespace),
      };
    } catch (err) {
      this.settings.log?.(`legacy service account token rejected: ${(err as Error).message}`);
      return undefined;
    }
  }

  private async checkStillValid(token: string, namespace: string, secretName: string, name: string, uid: string): Promise<void> {
    const lookup = this.settings.lookup;
    if (lookup === undefined) return;
    const held = await lookup.secretToken(namespace, secretName);
    if (held === undefined) throw new Error(`secret ${namespace}/${secretName} has been deleted`);
    if (!constantTimeEqual(held, token)) {
      throw new Error(`token does not match the one in secret ${namespace}/${secretName}`);
    }
    const current = await lookup.serviceAccount(namespace, name);
    if (current === undefined) throw new Error(`service account ${namespace}/${name} has been deleted`);
    if (current !== uid) throw new Error(`service account UID (${current}) does not match claim (${uid})`);
  }
}
