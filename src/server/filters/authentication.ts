/** Sets `ctx.user` from the request's credentials, or answers 401 Unauthorized. */
import { unauthorized } from '../../api/errors.js';
import { authenticateRequest, type AuthenticationDecision, type Authenticator } from '../../auth/authenticator.js';
import { isPromise, rejectingThrows } from '../../util/promises.js';
import type { Logger } from '../logger.js';
import type { Handler, RequestContext } from '../request-context.js';

export interface AuthenticationDeps {
  readonly authenticators: readonly Authenticator[];
  /** --anonymous-auth: requests without credentials run as system:anonymous. */
  readonly anonymous: boolean;
  readonly logger: Logger;
}

export function withAuthentication(handler: Handler, deps: AuthenticationDeps): Handler {
  const proceed = (ctx: RequestContext, decision: AuthenticationDecision): Promise<void> => {
    if (!decision.user) {
      // The reason stays in the log: telling a client why its credential failed helps attackers.
      deps.logger.info(`Unable to authenticate the request: ${decision.reasons.join('; ') || 'no credentials'}`, 2);
      throw unauthorized();
    }
    ctx.user = decision.user;
    return handler(ctx);
  };
  return rejectingThrows((ctx) => {
    // Usually known at once (a client certificate is checked once per connection).
    const decision = authenticateRequest(ctx.req, deps.authenticators, deps.anonymous);
    return isPromise(decision) ? decision.then((d) => proceed(ctx, d)) : proceed(ctx, decision);
  });
}
