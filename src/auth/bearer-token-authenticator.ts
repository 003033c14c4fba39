/**
 * Bearer token authentication (`Authorization: Bearer <token>`). The token authenticators (static
 * token file, service account tokens, OIDC, webhook) plug in as {@link TokenAuthenticator}s; a
 * token none of them accepts is refused, as upstream refuses an invalid token even when anonymous
 * access is on.
 */
import type { Request } from '../server/request-context.js';
import type { UserInfo } from './user-info.js';
import type { AuthenticationResult, Authenticator } from './authenticator.js';

/** Recognizes one kind of token; undefined when the token is not one of its own or not valid. */
export interface TokenAuthenticator {
  authenticateToken(token: string): Promise<UserInfo | undefined> | UserInfo | undefined;
  /**
   * For a token whose claims name audiences (service account tokens): the user when the token is
   * meant for one of `audiences`, with those it is meant for. Authenticators without it take
   * tokens that are good for the API's own audiences only (upstream's audience-agnostic ones).
   */
  authenticateTokenFor?(token: string, audiences: readonly string[]): Promise<AudienceBoundUser | undefined>;
}

export interface AudienceBoundUser {
  readonly user: UserInfo;
  readonly audiences: readonly string[];
}

export class BearerTokenAuthenticator implements Authenticator {
  constructor(private readonly tokenAuthenticators: readonly TokenAuthenticator[]) {}

  async authenticate(req: Request): Promise<AuthenticationResult> {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) return { outcome: 'no-credentials' };
    const user = await userOfToken(this.tokenAuthenticators, token);
    return user ? { outcome: 'authenticated', user } : { outcome: 'rejected', reason: 'invalid bearer token' };
  }
}

/** The user the first of `authenticators` to accept `token` names, else undefined. */
async function userOfToken(authenticators: readonly TokenAuthenticator[], token: string): Promise<UserInfo | undefined> {
  for (const authenticator of authenticators) {
    const user = await authenticator.authenticateToken(token);
    if (user) return user;
  }
  return undefined;
}

/** The token of `Bearer <token>` (scheme case-insensitive, as upstream), else undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const parts = header.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer' || parts[1] === '') return undefined;
  return parts[1];
}
