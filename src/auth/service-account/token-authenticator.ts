/**
 * Authenticates service account tokens, as upstream's JWT token authenticator with its service
 * account validator: a token whose `iss` is none of the accepted issuers is not ours (another
 * token authenticator may know it); one that is must carry a valid signature by one of the
 * verifying keys, an audience the server accepts, and times that hold (a minute's leeway). With
 * lookup on, the service account and the object the token is bound to must still exist, with the
 * UIDs the token names: a deleted account's tokens stop working at once.
 */
import type { JWTPayload } from 'jose';
import type { AudienceBoundUser, TokenAuthenticator } from '../bearer-token-authenticator.js';
import type { UserInfo } from '../user-info.js';
import { issuedBy, verifyToken } from './jwt-verification.js';
import type { VerifyingKey } from './signing-keys.js';
import { privateClaimsOf, type PrivateClaims } from './token-claims.js';
import { serviceAccountGroups, serviceAccountUserName } from '../service-account-user.js';

const CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';
const POD_NAME = 'authentication.kubernetes.io/pod-name';
const POD_UID = 'authentication.kubernetes.io/pod-uid';
const NODE_NAME = 'authentication.kubernetes.io/node-name';
const NODE_UID = 'authentication.kubernetes.io/node-uid';

/** The UID of an object as stored now (namespace '' for a node), or undefined when it does not exist. */
export type UidLookup = (namespace: string, name: string) => Promise<string | undefined>;

export interface ServiceAccountTokenSettings {
  /** Every accepted issuer (--service-account-issuer); the first one signs. */
  readonly issuers: readonly string[];
  readonly keys: readonly VerifyingKey[];
  /** --api-audiences: a token must name at least one of them. */
  readonly audiences: readonly string[];
  /** --service-account-lookup: when set, the account and the bound object must still exist. */
  readonly lookup?: { readonly serviceAccount: UidLookup; readonly pod: UidLookup; readonly secret: UidLookup; readonly node: UidLookup };
  /** Where rejections are reported (the 401 itself says only "Unauthorized", as upstream's). */
  readonly log?: (message: string) => void;
}

export class ServiceAccountTokenAuthenticator implements TokenAuthenticator {
  constructor(private readonly settings: ServiceAccountTokenSettings) {}

  async authenticateToken(token: string): Promise<UserInfo | undefined> {
    return (await this.authenticateTokenFor(token, this.settings.audiences))?.user;
  }

  async authenticateTokenFor(token: string, audiences: readonly string[]): Promise<AudienceBoundUser | undefined> {
    if (!issuedBy(token, this.settings.issuers)) return undefined;
    try {
      const payload = await verifyToken(token, this.settings.keys, { issuer: [...this.settings.issuers], audience: [...audiences] });
      const claims = privateClaimsOf(payload);
      if (claims === undefined) throw new Error('service account token claims could not be read');
      await this.checkStillValid(claims);
      const meantFor = typeof payload.aud === 'string' ? [payload.aud] : payload.aud ?? [];
      return { user: userOf(claims, payload), audiences: audiences.filter((a) => meantFor.includes(a)) };
    } catch (err) {
      this.settings.log?.(`service account token rejected: ${(err as Error).message}`);
      return undefined;
    }
  }

  private async checkStillValid(claims: PrivateClaims): Promise<void> {
    const lookup = this.settings.lookup;
    if (lookup === undefined) return;
    const { namespace, serviceAccount, pod, secret, node } = claims;
    const checks: Array<[string, UidLookup, { name: string; uid: string } | undefined, string]> = [
      ['service account', lookup.serviceAccount, serviceAccount, namespace],
      ['pod', lookup.pod, pod, namespace],
      ['secret', lookup.secret, secret, namespace],
      ['node', lookup.node, node, ''],
    ];
    for (const [what, uidOf, ref, where] of checks) {
      if (ref === undefined) continue;
      const uid = await uidOf(where, ref.name);
      if (uid === undefined) throw new Error(`${what} ${where === '' ? '' : `${where}/`}${ref.name} has been deleted`);
      if (uid !== ref.uid) throw new Error(`${what} UID (${uid}) does not match claim (${ref.uid})`);
    }
  }
}

function userOf(claims: PrivateClaims, payload: JWTPayload): UserInfo {
  const { namespace, serviceAccount, pod, node } = claims;
  const extra: Record<string, string[]> = {};
  if (pod) {
    extra[POD_NAME] = [pod.name];
    extra[POD_UID] = [pod.uid];
  }
  if (node) {
    extra[NODE_NAME] = [node.name];
    extra[NODE_UID] = [node.uid];
  }
  if (typeof payload.jti === 'string' && payload.jti !== '') extra[CREDENTIAL_ID] = [`JTI=${payload.jti}`];
  return {
    name: serviceAccountUserName(namespace, serviceAccount.name),
    uid: serviceAccount.uid,
    groups: serviceAccountGroups(namespace),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}
