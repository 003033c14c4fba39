/**
 * Authentication: each authenticator looks at one kind of credential. The authentication filter
 * runs them in order; see {@link authenticateRequest} for how their answers combine.
 */
import type { Request } from '../server/request-context.js';
import type { UserInfo } from './user-info.js';
import { isPromise } from '../util/promises.js';

export type AuthenticationResult =
  /** The credential is valid and names this user. */
  | { readonly outcome: 'authenticated'; readonly user: UserInfo }
  /** The request carries no credential of this kind. */
  | { readonly outcome: 'no-credentials' }
  /** A credential of this kind is present but invalid; the request is refused (401). */
  | { readonly outcome: 'rejected'; readonly reason: string };

export interface Authenticator {
  authenticate(req: Request): Promise<AuthenticationResult> | AuthenticationResult;
}

export const SYSTEM_AUTHENTICATED = 'system:authenticated';
export const SYSTEM_UNAUTHENTICATED = 'system:unauthenticated';
export const SYSTEM_MASTERS = 'system:masters';
export const ANONYMOUS_USER: UserInfo = { name: 'system:anonymous', groups: [SYSTEM_UNAUTHENTICATED] };

export type AuthenticationDecision =
  | { readonly user: UserInfo }
  | { readonly user?: undefined; readonly reasons: readonly string[] };

/**
 * Upstream's union with fail-on-error anonymous fallback: the first authenticator that accepts
 * wins and its user gains `system:authenticated`; otherwise any rejection refuses the request
 * (an invalid token is a 401 even when anonymous access is on); otherwise the request is
 * anonymous if allowed, else refused.
 */
export function authenticateRequest(
  req: Request,
  authenticators: readonly Authenticator[],
  anonymous: boolean,
): AuthenticationDecision | Promise<AuthenticationDecision> {
  return askFrom(0, [], req, authenticators, anonymous);
}

/**
 * Asks the authenticators from `first` on. Synchronous for as long as their answers are, so that
 * a request whose credential is known at once (a client certificate) waits for nothing.
 */
function askFrom(
  first: number,
  reasons: string[],
  req: Request,
  authenticators: readonly Authenticator[],
  anonymous: boolean,
): AuthenticationDecision | Promise<AuthenticationDecision> {
  for (let i = first; i < authenticators.length; i++) {
    const result = authenticators[i]!.authenticate(req);
    if (isPromise(result)) {
      return result.then((r) => (r.outcome === 'authenticated' ? authenticated(r.user) : askFrom(i + 1, withReason(reasons, r), req, authenticators, anonymous)));
    }
    if (result.outcome === 'authenticated') return authenticated(result.user);
    withReason(reasons, result);
  }
  if (reasons.length === 0 && anonymous) return { user: ANONYMOUS_USER };
  return { reasons };
}

function authenticated(user: UserInfo): AuthenticationDecision {
  return { user: withAuthenticatedGroup(user) };
}

function withReason(reasons: string[], result: AuthenticationResult): string[] {
  if (result.outcome === 'rejected') reasons.push(result.reason);
  return reasons;
}

function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(SYSTEM_AUTHENTICATED) || user.groups.includes(SYSTEM_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
}
