/**
 * Whether a request without credentials is served, as system:anonymous. Never with the
 * AlwaysAllow authorizer among the modes, as upstream: anyone who reaches the port would have every
 * right. Upstream then turns --anonymous-auth off with a warning rather than refuse to start, so
 * such a server answers a request without credentials with 401, and so does this one.
 */
export const ANONYMOUS_WITH_ALWAYS_ALLOW =
  'AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer';

/** `requested` (--anonymous-auth) unless `modes` holds AlwaysAllow; `warn` hears of the reset. */
export function anonymousAccess(requested: boolean, modes: readonly string[], warn: (message: string) => void): boolean {
  if (!requested || !modes.includes('AlwaysAllow')) return requested;
  warn(ANONYMOUS_WITH_ALWAYS_ALLOW);
  return false;
}
