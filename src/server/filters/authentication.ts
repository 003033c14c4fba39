/** Sets `ctx.user` from the request's credentials, or answers 401 Unauthorized. */
import { unauthorized } from '../../api/errors.js';
import { authenticateRequest, type Authenticator } from '../../auth/authenticator.js';
import type { Logger } from '../logger.js';
import type { Handler } from '../request-context.js';

export interface AuthenticationDeps {
  readonly authenticators: readonly Authenticator[];
  /** --anonymous-auth: requests without credentials run as system:anonymous. */
  readonly anonymous: boolean;
  readonly logger: Logger;
}

export function withAuthentication(handler: Handler, deps: AuthenticationDeps): Handler {
  return async (ctx) => {
    const decision = await authenticateRequest(ctx.req, deps.authenticators, deps.anonymous);
    if (!decision.user) {
      // The reason stays in the log: telling a client why its credential failed helps attackers.
      deps.logger.info(`Unable to authenticate the request: ${decision.reasons.join('; ') || 'no credentials'}`, 2);
      throw unauthorized();
    }
    ctx.user = decision.user;
    return handler(ctx);
  };
}
