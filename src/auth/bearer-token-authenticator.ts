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
export async function userOfToken(authenticators: readonly TokenAuthenticator[], token: string): Promise<UserInfo | undefined> {
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
