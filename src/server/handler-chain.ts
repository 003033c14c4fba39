/**
 * The handler chain: what every request passes through before the router, in DESIGN.md's order.
 * Read from the bottom up: the first wrapper applied is the innermost.
 *
 *   retry-after (while stopping) -> HSTS -> request info -> GOAWAY -> panic recovery -> CORS
 *   -> failed-authentication audit -> authentication -> audit -> impersonation -> max in-flight
 *   -> authorization -> timeout -> router
 *
 * Audit runs after authentication, where upstream runs it (DESIGN.md puts it before): the policy
 * looks at the user, which authentication sets. Requests that fail authentication are audited from
 * outside it, as upstream's failed-authentication audit does. Impersonation comes after audit, so
 * the event names the user who sent the request and, beside it, the one it acted as; everything
 * after it (max in-flight, authorization, the handlers) sees the impersonated user. Priority and
 * fairness would replace max in-flight. Filters whose options are off (audit, CORS, GOAWAY, HSTS)
 * are left out of the chain altogether.
 */
import type { Auditing } from '../audit/build-auditing.js';
import { withAudit, withFailedAuthenticationAudit } from './filters/audit.js';
import { withAuthentication } from './filters/authentication.js';
import { withAuthorization } from './filters/authorization.js';
import { withCors } from './filters/cors.js';
import { withProbabilisticGoaway } from './filters/goaway.js';
import { withHsts } from './filters/hsts.js';
import { withImpersonation } from './filters/impersonation.js';
import { withRetryAfter } from './filters/retry-after.js';
import { withMaxInFlight } from './filters/max-in-flight.js';
import { withPanicRecovery } from './filters/panic-recovery.js';
import { withRequestInfo, type RequestListener } from './filters/request-info.js';
import { withTimeout } from './filters/timeout.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { Authorizer } from '../auth/authorizer.js';
import type { InFlightRequests } from './in-flight.js';
import type { Logger } from './logger.js';
import type { RequestInfoResolver } from './request-info.js';
import type { Handler } from './request-context.js';

export interface HandlerChainDeps {
  /** The innermost handler (the router's). */
  readonly handler: Handler;
  readonly logger: Logger;
  readonly resolver: RequestInfoResolver;
  readonly inFlight: InFlightRequests;
  readonly authenticators: readonly Authenticator[];
  readonly anonymous: boolean;
  readonly authorizer: Authorizer;
  readonly requestTimeoutMs: number;
  readonly maxRequestsInflight: number;
  readonly maxMutatingRequestsInflight: number;
  /** --cors-allowed-origins (Go regular expressions); none: no CORS. */
  readonly corsAllowedOrigins: readonly string[];
  /** --strict-transport-security-directives; none: no header. */
  readonly hstsDirectives: readonly string[];
  /** --goaway-chance (HTTP/2 only); 0: never. */
  readonly goawayChance: number;
  /** --audit-policy-file with a log or webhook: what is audited and where it goes; absent: nothing. */
  readonly auditing?: Auditing;
  /** With --shutdown-send-retry-after: true once a stopping server answers new requests 429. */
  readonly refusingNewRequests?: () => boolean;
}

/** Builds the request listener the HTTPS server calls. */
export function buildHandlerChain(deps: HandlerChainDeps): RequestListener {
  let h = deps.handler;
  h = withTimeout(h, deps);
  h = withAuthorization(h, deps);
  h = withMaxInFlight(h, deps);
  h = withImpersonation(h, deps);
  h = withAudit(h, deps);
  h = withAuthentication(h, deps);
  h = withFailedAuthenticationAudit(h, deps);
  h = withCors(h, deps);
  h = withPanicRecovery(h, deps);
  h = withProbabilisticGoaway(h, deps);
  const listener = withHsts(withRequestInfo(h, deps), deps.hstsDirectives);
  return deps.refusingNewRequests ? withRetryAfter(listener, deps.refusingNewRequests) : listener;
}
