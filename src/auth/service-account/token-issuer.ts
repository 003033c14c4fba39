/** Signs service account tokens (compact JWS) with the signing key, naming it in the `kid` header. */
import { SignJWT } from 'jose';
import type { SigningKey } from './signing-keys.js';
import { legacyClaims } from './legacy-token.js';
import { tokenClaims, type ServiceAccountRef, type TokenSubject } from './token-claims.js';

export interface IssuedToken {
  readonly token: string;
  /** When it expires, in milliseconds since the epoch. */
  readonly expiresAt: number;
}

export class TokenIssuer {
  constructor(
    /** The `iss` of every token signed here: the first --service-account-issuer. */
    readonly issuer: string,
    private readonly key: SigningKey,
  ) {}

  async issue(subject: TokenSubject, nowMs: number = Date.now()): Promise<IssuedToken> {
    const nowSeconds = Math.floor(nowMs / 1000);
    const claims = tokenClaims(this.issuer, subject, nowSeconds);
    const token = await new SignJWT(claims).setProtectedHeader({ alg: this.key.algorithm, kid: this.key.keyId }).sign(this.key.privateKey);
    return { token, expiresAt: (nowSeconds + subject.expirationSeconds) * 1000 };
  }

  /** A legacy token (no audience, no expiry) for the Secret `secretName` of `account`. */
  issueLegacy(account: ServiceAccountRef, secretName: string): Promise<string> {
    return new SignJWT(legacyClaims(account, secretName)).setProtectedHeader({ alg: this.key.algorithm, kid: this.key.keyId }).sign(this.key.privateKey);
  }
}
