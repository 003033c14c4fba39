/**
 * Turns any failure inside the chain into a response: an ApiError as its Status, anything else
 * as a logged 500 InternalError. The process never goes down because of one request.
 */
import { writeError } from '../write-response.js';
import type { Logger } from '../logger.js';
import type { Handler, RequestContext } from '../request-context.js';

export function withPanicRecovery(handler: Handler, deps: { readonly logger: Logger }): Handler {
  const recover = (ctx: RequestContext, err: unknown): void => writeError(ctx, err, { logger: deps.logger });
  return (ctx) => {
    try {
      return handler(ctx).then(undefined, (err: unknown) => recover(ctx, err));
    } catch (err) {
      recover(ctx, err);
      return Promise.resolve();
    }
  };
}
