/**
 * Authentication: each authenticator looks at one kind of credential. The authentication filter
 * runs them in order; see {@link authenticateRequest} for how their answers combine.
 */
import type { Request } from '../server/request-context.js';
import type { UserInfo } from './user-info.js';
import { firstDeciding, isPromise, NoneDecided } from '../util/promises.js';

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
  const outcome = firstDeciding(authenticators, req, authenticateWith, isAuthenticated);
  return isPromise(outcome) ? outcome.then((o) => decisionOf(o, anonymous)) : decisionOf(outcome, anonymous);
}

const authenticateWith = (authenticator: Authenticator, req: Request): AuthenticationResult | Promise<AuthenticationResult> => authenticator.authenticate(req);
type Authenticated = Extract<AuthenticationResult, { outcome: 'authenticated' }>;
const isAuthenticated = (result: AuthenticationResult): result is Authenticated => result.outcome === 'authenticated';
const ANONYMOUS_DECISION: AuthenticationDecision = { user: ANONYMOUS_USER };

function decisionOf(outcome: Authenticated | NoneDecided<AuthenticationResult>, anonymous: boolean): AuthenticationDecision {
  if (!(outcome instanceof NoneDecided)) return { user: withAuthenticatedGroup(outcome.user) };
  const reasons = outcome.answers.flatMap((result) => (result.outcome === 'rejected' ? [result.reason] : []));
  return reasons.length === 0 && anonymous ? ANONYMOUS_DECISION : { reasons };
}

/** `user` in system:authenticated, as every authenticated request's user is (upstream's group adder). */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(SYSTEM_AUTHENTICATED) || user.groups.includes(SYSTEM_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
}
