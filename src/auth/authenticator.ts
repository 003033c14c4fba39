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
  return authenticateFrom(req, authenticators, anonymous, 0, undefined);
}

const ANONYMOUS_DECISION: AuthenticationDecision = { user: ANONYMOUS_USER };

/**
 * {@link authenticateRequest} from the `from`th authenticator on, with the rejections so far.
 * Synchronous until an authenticator answers with a promise, and a loop rather than callbacks:
 * every request passes here, and the closures and arrays of a general helper (here and in the
 * authorizers' union) were ~0.7 KB of the ~10 KB a get allocated (bench/RESULTS.md,
 * twenty-seventh session).
 */
function authenticateFrom(
  req: Request,
  authenticators: readonly Authenticator[],
  anonymous: boolean,
  from: number,
  reasons: string[] | undefined,
): AuthenticationDecision | Promise<AuthenticationDecision> {
  for (let i = from; i < authenticators.length; i++) {
    const answer = authenticators[i]!.authenticate(req);
    if (isPromise(answer)) {
      return answer.then((result) => {
        if (result.outcome === 'authenticated') return { user: withAuthenticatedGroup(result.user) };
        if (result.outcome === 'rejected') (reasons ??= []).push(result.reason);
        return authenticateFrom(req, authenticators, anonymous, i + 1, reasons);
      });
    }
    if (answer.outcome === 'authenticated') return { user: withAuthenticatedGroup(answer.user) };
    if (answer.outcome === 'rejected') (reasons ??= []).push(answer.reason);
  }
  if (reasons === undefined && anonymous) return ANONYMOUS_DECISION;
  return { reasons: reasons ?? [] };
}

/** `user` in system:authenticated, as every authenticated request's user is (upstream's group adder). */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(SYSTEM_AUTHENTICATED) || user.groups.includes(SYSTEM_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
}
